// SHA-256 through OpenSSL's EVP interface, with one context reused across calls (the verifier
// hashes every line of a log).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

struct evp_md_ctx_st;
struct evp_md_st;

namespace wt {

using Digest = std::array<std::uint8_t, 32>;

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  // SHA-256 of the concatenation a + b.
  Digest digest(std::string_view a, std::string_view b = {});
  std::string hex(std::string_view a, std::string_view b = {});

 private:
  evp_md_ctx_st* ctx_;
  evp_md_st* md_;
};

std::string to_hex(const std::uint8_t* data, std::size_t n);
inline std::string sha256_hex(std::string_view a, std::string_view b = {}) { return Sha256().hex(a, b); }

}  // namespace wt
