// Throwaway TLS identities for the tests of the metrics endpoint.
#pragma once

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "test_util.hpp"

namespace wt::test {

// A self-signed certificate for 127.0.0.1 and its key, as PEM files.
struct SelfSigned {
  std::string cert, key;
};

inline SelfSigned make_self_signed(const std::string& name) {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* x = X509_new();
  X509_set_version(x, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
  X509_gmtime_adj(X509_getm_notBefore(x), -60);
  X509_gmtime_adj(X509_getm_notAfter(x), 3600);
  X509_set_pubkey(x, key);
  X509_NAME* subject = X509_get_subject_name(x);
  X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("127.0.0.1"), -1,
                             -1, 0);
  X509_set_issuer_name(x, subject);
  X509_sign(x, key, EVP_sha256());
  SelfSigned out{write_temp(name + ".pem", ""), write_temp(name + ".key", "")};
  std::FILE* f = std::fopen(out.cert.c_str(), "w");
  PEM_write_X509(f, x);
  std::fclose(f);
  f = std::fopen(out.key.c_str(), "w");
  PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(f);
  X509_free(x);
  EVP_PKEY_free(key);
  return out;
}

inline std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Puts `content` at `path` by renaming a new file over it, as a renewal tool (or a Kubernetes
// secret's link swap) does, so the file is never seen half written.
inline void replace_file(const std::string& path, const std::string& content) {
  std::ofstream(path + ".new", std::ios::binary) << content;
  std::filesystem::rename(path + ".new", path);
}

}  // namespace wt::test
