// Base64 (RFC 4648, with padding) through OpenSSL's EVP block coder.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace wt {

std::string base64_encode(std::string_view bytes);
// nullopt for text that is not canonical padded base64.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace wt
