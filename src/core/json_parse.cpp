#include "core/json_parse.hpp"

namespace wt {
namespace {

using nlohmann::json;

// nlohmann's own DOM builder (what json::parse uses; a detail class, stable across Debian 12's
// 3.11) behind a count of values and of nesting, so the document is built exactly as before.
class BoundedDom {
 public:
  BoundedDom(json& root, const JsonBounds& bounds) : dom_(root, false), bounds_(bounds) {}
  bool null() { return take() && dom_.null(); }
  bool boolean(bool v) { return take() && dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return take() && dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return take() && dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) { return take() && dom_.number_float(v, s); }
  bool string(json::string_t& v) { return take() && dom_.string(v); }
  bool binary(json::binary_t& v) { return take() && dom_.binary(v); }
  bool start_object(std::size_t n) { return take() && nest() && dom_.start_object(n); }
  bool key(json::string_t& k) { return dom_.key(k); }
  bool end_object() { return --depth_, dom_.end_object(); }
  bool start_array(std::size_t n) { return take() && nest() && dom_.start_array(n); }
  bool end_array() { return --depth_, dom_.end_array(); }
  template <class Exception>
  bool parse_error(std::size_t at, const std::string& token, const Exception& e) {
    why_ = e.what();
    return dom_.parse_error(at, token, e);
  }
  const std::string& why() const { return why_; }

 private:
  bool take() {
    if (values_++ < bounds_.max_values) return true;
    why_ = "more than " + std::to_string(bounds_.max_values) + " values";
    return false;
  }
  bool nest() {
    if (++depth_ <= bounds_.max_depth) return true;
    why_ = "nests deeper than " + std::to_string(bounds_.max_depth) + " levels";
    return false;
  }
  nlohmann::detail::json_sax_dom_parser<json> dom_;
  const JsonBounds& bounds_;
  std::size_t values_ = 0;
  int depth_ = 0;
  std::string why_;
};

}  // namespace

json parse_json(std::string_view text, std::string* why, const JsonBounds& bounds) {
  json out;
  BoundedDom dom(out, bounds);
  const auto format = bounds.ubjson ? json::input_format_t::ubjson : json::input_format_t::json;
  if (json::sax_parse(text.begin(), text.end(), &dom, format)) return out;
  if (why) *why = dom.why().empty() ? "not valid JSON" : dom.why();
  return json(json::value_t::discarded);
}

}  // namespace wt
