#include "audit/signing_key.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <functional>

#include "core/diagnostic.hpp"

namespace {

std::string temp_prefix(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("wt_key_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string prefix = (dir / name).string();
  std::filesystem::remove(prefix + ".key");
  std::filesystem::remove(prefix + ".pub");
  return prefix;
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  ::stat(path.c_str(), &st);
  return st.st_mode & 07777;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const wt::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(SigningKey, KeygenWritesAPairAndRefusesToOverwrite) {
  const std::string prefix = temp_prefix("pair");
  const auto files = wt::audit::generate_key_pair(prefix);
  EXPECT_EQ(mode_of(prefix + ".key"), 0600u);
  EXPECT_EQ(mode_of(prefix + ".pub"), 0644u);
  EXPECT_EQ(files.key_id.size(), 64u);
  const auto priv = wt::audit::PrivateKey::load(files.private_path);
  const auto pub = wt::audit::PublicKey::load(files.public_path);
  EXPECT_EQ(priv.public_key().id(), files.key_id);
  EXPECT_EQ(pub.id(), files.key_id);
  EXPECT_NE(error_of([&] { wt::audit::generate_key_pair(prefix); }).find("refusing to overwrite"), std::string::npos);
  EXPECT_EQ(mode_of(prefix + ".key"), 0600u);  // untouched
}

TEST(SigningKey, SignsAndVerifies) {
  const auto files = wt::audit::generate_key_pair(temp_prefix("sign"));
  const auto other = wt::audit::generate_key_pair(temp_prefix("other"));
  const auto priv = wt::audit::PrivateKey::load(files.private_path);
  const auto pub = wt::audit::PublicKey::load(files.public_path);
  const std::string sig = priv.sign("message");
  EXPECT_EQ(sig.size(), 88u);  // base64 of 64 bytes
  EXPECT_TRUE(pub.verify("message", sig));
  EXPECT_FALSE(pub.verify("messagf", sig));
  EXPECT_FALSE(wt::audit::PublicKey::load(other.public_path).verify("message", sig));
  std::string bad = sig;
  bad[10] = bad[10] == 'A' ? 'B' : 'A';
  EXPECT_FALSE(pub.verify("message", bad));
  EXPECT_FALSE(pub.verify("message", "not base64!"));
  EXPECT_FALSE(pub.verify("message", ""));
}

TEST(SigningKey, RefusesAPrivateKeyOthersCanRead) {
  const auto files = wt::audit::generate_key_pair(temp_prefix("perm"));
  for (const mode_t m : {0644, 0640, 0604, 0620}) {
    ::chmod(files.private_path.c_str(), m);
    const std::string err = error_of([&] { wt::audit::PrivateKey::load(files.private_path); });
    EXPECT_NE(err.find(files.private_path), std::string::npos) << err;
    EXPECT_NE(err.find("chmod 600"), std::string::npos) << err;
  }
  ::chmod(files.private_path.c_str(), 0400);
  EXPECT_NO_THROW(wt::audit::PrivateKey::load(files.private_path));
}

TEST(SigningKey, RejectsFilesThatAreNotKeys) {
  const std::string prefix = temp_prefix("junk");
  const auto files = wt::audit::generate_key_pair(prefix);
  EXPECT_NE(error_of([&] { wt::audit::PublicKey::load(files.private_path); }).find("not a PEM public key"),
            std::string::npos);
  EXPECT_NE(error_of([&] { wt::audit::PublicKey::load(prefix + ".missing"); }).find(".missing"), std::string::npos);
}
