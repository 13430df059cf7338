#include "audit/canonical_json.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>

using nlohmann::json;
using wt::audit::canonical;
using wt::audit::CanonicalScan;
using wt::audit::scan_canonical_object;

namespace {

std::string py(double d) {
  std::string s;
  wt::audit::append_python_float(s, d);
  return s;
}

bool scans(std::string_view text) {
  CanonicalScan scan;
  return scan_canonical_object(text, scan);
}

}  // namespace

// Expected strings printed by Python 3.11's json.dumps for the same doubles.
TEST(CanonicalJson, FloatsAsPythonWritesThem) {
  EXPECT_EQ(py(1.0), "1.0");
  EXPECT_EQ(py(0.5), "0.5");
  EXPECT_EQ(py(1e-5), "1e-05");
  EXPECT_EQ(py(0.0001), "0.0001");
  EXPECT_EQ(py(1e15), "1000000000000000.0");  // nlohmann's dump() writes 1e+15 here
  EXPECT_EQ(py(1e16), "1e+16");
  EXPECT_EQ(py(1.5e16), "1.5e+16");
  EXPECT_EQ(py(123456789012345680.0), "1.2345678901234568e+17");
  EXPECT_EQ(py(-0.0), "-0.0");
  EXPECT_EQ(py(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(py(1e300), "1e+300");
  EXPECT_EQ(py(5e-324), "5e-324");
  EXPECT_EQ(py(100.0), "100.0");
  EXPECT_EQ(py(1e-7), "1e-07");
  EXPECT_EQ(py(12345.678), "12345.678");
  EXPECT_EQ(py(-339.88), "-339.88");
  EXPECT_THROW(py(std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
  EXPECT_THROW(py(std::numeric_limits<double>::infinity()), std::invalid_argument);
}

TEST(CanonicalJson, SortedKeysNoSpacesAsciiEscapes) {
  const json j = {{"b", 1}, {"a", "\xc3\xa9\xe2\x80\xa8x"}, {"\xc3\xa9", true}, {"Z", nullptr}, {"n", {1, 2.5, -3}}};
  EXPECT_EQ(canonical(j), R"({"Z":null,"a":"\u00e9\u2028x","b":1,"n":[1,2.5,-3],"\u00e9":true})");
  EXPECT_EQ(canonical(json("\xf0\x9f\x98\x80 \"q\" \\ \t\n\x01\x7f/")),
            R"("\ud83d\ude00 \"q\" \\ \t\n\u0001\u007f/")");
  EXPECT_EQ(canonical(json::object()), "{}");
  EXPECT_EQ(canonical(json::array()), "[]");
  EXPECT_THROW(canonical(json(std::string("\xff"))), std::invalid_argument);
  EXPECT_THROW(canonical(json(std::nan(""))), std::invalid_argument);
}

// Lines that Python wrote in canonical form: our serializer reproduces them byte for byte and
// the verifier's fast scanner accepts them.
TEST(CanonicalJson, ReproducesPythonBytes) {
  std::ifstream in(std::string(WT_FIXTURE_DIR) + "/audit/seed_log_sorted.jsonl");
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    EXPECT_EQ(canonical(json::parse(line)), line);
    CanonicalScan scan;
    ASSERT_TRUE(scan_canonical_object(line, scan)) << line;
    EXPECT_TRUE(scan.prev_hash.found());
    EXPECT_TRUE(scan.entry_hash.found());
    EXPECT_EQ(line.substr(scan.prev_hash.begin, 12), "\"prev_hash\":");
  }
  EXPECT_EQ(lines, 3);
}

TEST(CanonicalJson, ScannerAcceptsOnlyCanonicalText) {
  EXPECT_TRUE(scans(R"({"a":[1,{"b":null}],"c":"x\u00e9","d":-2.5e-05,"e":true})"));
  EXPECT_TRUE(scans("{}"));
  EXPECT_TRUE(scans(R"({"a":"\ud83d\ude00"})"));  // a surrogate pair
  EXPECT_FALSE(scans(R"({"a":"\ud83d"})"));        // a lone high surrogate
  EXPECT_FALSE(scans(R"({"a":"\ude00"})"));        // a lone low surrogate
  EXPECT_FALSE(scans(R"({"a": 1})"));              // space
  EXPECT_FALSE(scans(R"({"b":1,"a":2})"));         // unsorted
  EXPECT_FALSE(scans(R"({"a":1,"a":2})"));         // duplicate key
  EXPECT_FALSE(scans(R"({"a":1e5})"));             // Python writes 100000.0
  EXPECT_FALSE(scans(R"({"a":1.50})"));            // not the shortest form
  EXPECT_FALSE(scans(R"({"a":-0})"));              // an integer -0 reads as 0
  EXPECT_FALSE(scans(R"({"a":"\/"})"));            // needless escape
  EXPECT_FALSE(scans(R"({"a":"\u00E9"})"));        // uppercase hex
  EXPECT_FALSE(scans(R"({"a":"\u0041"})"));        // ASCII escaped
  EXPECT_FALSE(scans("{\"a\":\"\xc3\xa9\"}"));     // raw UTF-8
  EXPECT_FALSE(scans(R"({"a":1})" "\n"));          // trailing bytes
  EXPECT_FALSE(scans(R"({"a":1)"));                // cut short
  EXPECT_FALSE(scans(R"([1])"));                   // not an object
  EXPECT_FALSE(scans(R"({"a":123456789012345678901})"));  // too long for 64 bits: the full parser decides
}
