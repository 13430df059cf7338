#include "core/sha256.hpp"

#include <openssl/evp.h>

#include <stdexcept>

namespace wt {

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()), md_(EVP_MD_fetch(nullptr, "SHA256", nullptr)) {
  if (!ctx_ || !md_) {
    EVP_MD_CTX_free(ctx_);
    EVP_MD_free(md_);
    throw std::runtime_error("OpenSSL: SHA-256 is not available");
  }
}

Sha256::~Sha256() {
  EVP_MD_CTX_free(ctx_);
  EVP_MD_free(md_);
}

Digest Sha256::digest(std::string_view a, std::string_view b) {
  Digest d{};
  unsigned int len = 0;
  if (EVP_DigestInit_ex2(ctx_, md_, nullptr) != 1 || EVP_DigestUpdate(ctx_, a.data(), a.size()) != 1 ||
      EVP_DigestUpdate(ctx_, b.data(), b.size()) != 1 || EVP_DigestFinal_ex(ctx_, d.data(), &len) != 1)
    throw std::runtime_error("OpenSSL: SHA-256 failed");
  return d;
}

std::string Sha256::hex(std::string_view a, std::string_view b) {
  const Digest d = digest(a, b);
  return to_hex(d.data(), d.size());
}

std::string to_hex(const std::uint8_t* data, std::size_t n) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(2 * n, '0');
  for (std::size_t i = 0; i < n; ++i) {
    out[2 * i] = kHex[data[i] >> 4];
    out[2 * i + 1] = kHex[data[i] & 0xF];
  }
  return out;
}

}  // namespace wt
