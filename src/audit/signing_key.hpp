// Ed25519 keys for signed audit-log checkpoints, kept in PEM files (PKCS#8 private key,
// SubjectPublicKeyInfo public key). A key's id is the SHA-256 hex of its raw 32-byte public key.
#pragma once

#include <memory>
#include <string>
#include <string_view>

struct evp_pkey_st;

namespace wt::audit {

class PublicKey {
 public:
  // Throws InputError naming the file when it cannot be read or is not an Ed25519 public key.
  static PublicKey load(const std::string& path);
  // `signature` is base64 of the 64-byte Ed25519 signature; false for any malformed value.
  bool verify(std::string_view message, std::string_view signature) const;
  const std::string& id() const { return id_; }

 private:
  friend class PrivateKey;
  explicit PublicKey(std::shared_ptr<evp_pkey_st> key);
  std::shared_ptr<evp_pkey_st> key_;
  std::string id_;
};

class PrivateKey {
 public:
  // Refuses (InputError) a key file that group or others may read or write: a leaked signing
  // key lets anyone rewrite a log undetected.
  static PrivateKey load(const std::string& path);
  std::string sign(std::string_view message) const;  // base64
  const PublicKey& public_key() const { return public_; }

 private:
  explicit PrivateKey(std::shared_ptr<evp_pkey_st> key);
  std::shared_ptr<evp_pkey_st> key_;
  PublicKey public_;
};

struct KeyFiles {
  std::string private_path, public_path, key_id;
};

// Writes PREFIX.key (mode 0600) and PREFIX.pub; refuses (InputError) if either exists.
KeyFiles generate_key_pair(const std::string& prefix);

}  // namespace wt::audit
