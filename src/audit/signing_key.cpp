#include "audit/signing_key.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <vector>

#include "core/base64.hpp"
#include "core/diagnostic.hpp"
#include "core/sha256.hpp"

namespace wt::audit {
namespace {

constexpr std::size_t kSignatureBytes = 64;

std::shared_ptr<evp_pkey_st> own(EVP_PKEY* k) { return {k, EVP_PKEY_free}; }

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// Opens a regular file for reading; the mode check is done on the open descriptor so that the
// file checked is the file read.
File open_regular(const std::string& path, struct stat& st) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path + ": " + std::strerror(errno));
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw InputError(path + ": not a regular file");
  }
  File f(::fdopen(fd, "r"));
  if (!f) {
    ::close(fd);
    throw InputError(path + ": " + std::strerror(errno));
  }
  return f;
}

void require_ed25519(EVP_PKEY* k, const std::string& path, const char* what) {
  if (!k) throw InputError(path + ": not a PEM " + what);
  if (EVP_PKEY_is_a(k, "ED25519") != 1) {
    EVP_PKEY_free(k);
    throw InputError(path + ": not an Ed25519 key (make one with `workloadtruth keygen`)");
  }
}

std::string key_id(EVP_PKEY* k) {
  unsigned char raw[32];
  std::size_t len = sizeof raw;
  if (EVP_PKEY_get_raw_public_key(k, raw, &len) != 1) throw std::runtime_error("OpenSSL: cannot read a public key");
  return sha256_hex(std::string_view(reinterpret_cast<const char*>(raw), len));
}

// Creates `path` exclusively with `mode` and writes a PEM block into it.
void write_new(const std::string& path, mode_t mode, const std::function<int(std::FILE*)>& write) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) throw InputError(path + ": " + std::strerror(errno));
  ::fchmod(fd, mode);  // whatever the umask
  File f(::fdopen(fd, "w"));
  if (!f) {
    ::close(fd);
    throw InputError(path + ": " + std::strerror(errno));
  }
  const bool ok = write(f.get()) == 1 && std::fflush(f.get()) == 0 && ::fsync(fd) == 0;
  if (!ok) {
    f.reset();
    std::filesystem::remove(path);
    throw InputError(path + ": write failed");
  }
}

}  // namespace

PublicKey::PublicKey(std::shared_ptr<evp_pkey_st> key) : key_(std::move(key)), id_(key_id(key_.get())) {}

PublicKey PublicKey::load(const std::string& path) {
  struct stat st {};
  const File f = open_regular(path, st);
  EVP_PKEY* k = PEM_read_PUBKEY(f.get(), nullptr, nullptr, nullptr);
  require_ed25519(k, path, "public key");
  return PublicKey(own(k));
}

bool PublicKey::verify(std::string_view message, std::string_view signature) const {
  const std::optional<std::string> sig = base64_decode(signature);
  if (!sig || sig->size() != kSignatureBytes) return false;
  const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  return ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key_.get()) == 1 &&
         EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(sig->data()), sig->size(),
                          reinterpret_cast<const unsigned char*>(message.data()), message.size()) == 1;
}

PrivateKey::PrivateKey(std::shared_ptr<evp_pkey_st> key) : key_(std::move(key)), public_(key_) {}

PrivateKey PrivateKey::load(const std::string& path) {
  struct stat st {};
  const File f = open_regular(path, st);
  if ((st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    throw InputError(path + ": private key is accessible to group or others (mode " + mode +
                     "); refusing to use it. Run: chmod 600 " + path);
  }
  EVP_PKEY* k = PEM_read_PrivateKey(f.get(), nullptr, nullptr, nullptr);
  require_ed25519(k, path, "private key");
  return PrivateKey(own(k));
}

std::string PrivateKey::sign(std::string_view message) const {
  unsigned char sig[kSignatureBytes];
  std::size_t len = sizeof sig;
  const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key_.get()) != 1 ||
      EVP_DigestSign(ctx.get(), sig, &len, reinterpret_cast<const unsigned char*>(message.data()), message.size()) !=
          1)
    throw std::runtime_error("OpenSSL: Ed25519 signing failed");
  return base64_encode(std::string_view(reinterpret_cast<const char*>(sig), len));
}

KeyFiles generate_key_pair(const std::string& prefix) {
  KeyFiles files{prefix + ".key", prefix + ".pub", ""};
  for (const auto& p : {files.private_path, files.public_path})
    if (std::filesystem::exists(p)) throw InputError(p + ": already exists; refusing to overwrite a key");
  EVP_PKEY* raw = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
  if (!raw) throw std::runtime_error("OpenSSL: Ed25519 key generation failed");
  const auto key = own(raw);
  write_new(files.private_path, 0600, [&](std::FILE* f) {
    return PEM_write_PrivateKey(f, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
  });
  try {
    write_new(files.public_path, 0644, [&](std::FILE* f) { return PEM_write_PUBKEY(f, key.get()); });
  } catch (...) {
    std::filesystem::remove(files.private_path);  // no half pair left behind
    throw;
  }
  files.key_id = key_id(key.get());
  return files;
}

}  // namespace wt::audit
