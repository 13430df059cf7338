#include "audit/audit_log.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "audit/canonical_json.hpp"
#include "audit/checkpoint.hpp"
#include "audit/log_verifier.hpp"
#include "core/sha256.hpp"
#include "audit/verdict_entry.hpp"
#include "core/diagnostic.hpp"

using nlohmann::json;
using wt::audit::AuditLog;
using wt::audit::AuditLogOptions;
using wt::audit::BreakKind;
using wt::audit::verify_log_file;
using wt::audit::verify_log_text;
using wt::audit::VerifyOptions;
using wt::audit::VerifyResult;

namespace {

std::filesystem::path temp_dir() {
  const auto dir = std::filesystem::temp_directory_path() / ("wt_audit_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

std::string fresh(const std::string& name) {
  const std::string path = (temp_dir() / name).string();
  std::filesystem::remove(path);
  return path;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void spit(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

json payload(int i) {
  wt::GpuIdentity gpu{i % 4, "GPU-" + std::to_string(i % 4), "Test GPU", "", ""};
  wt::Verdict v;
  v.type = i % 3 == 0 ? wt::WorkloadType::Training : wt::WorkloadType::Inference;
  v.confidence = 0.75 + i * 0.001;
  v.reasons = {"Mean GPU utilization " + std::to_string(80 + i) + "% >= 65% (training vote).",
               "caf\xc3\xa9 \xe2\x89\xa5 12"};
  v.features.avg_gpu_util_pct = 80.0 + i / 7.0;
  v.features.avg_power_watts = 300.25;
  return wt::audit::verdict_entry(gpu, v, 1000.0 + 15 * i, 1030.0 + 15 * i, 1.7e9 + i);
}

// A log of `n` verdict entries written through the writer.
std::string write_log(const std::string& name, int n, AuditLogOptions o = {}) {
  const std::string path = fresh(name);
  AuditLog log(path, std::move(o));
  for (int i = 0; i < n; ++i) log.append(payload(i));
  log.close();
  return path;
}

struct Keys {
  std::string priv, pub;
};
const Keys& keys() {
  static const Keys k = [] {
    const std::string prefix = fresh("key");
    std::filesystem::remove(prefix + ".key");
    std::filesystem::remove(prefix + ".pub");
    const auto f = wt::audit::generate_key_pair(prefix);
    return Keys{f.private_path, f.public_path};
  }();
  return k;
}

AuditLogOptions signing(std::size_t every) {
  AuditLogOptions o;
  o.signing_key = wt::audit::PrivateKey::load(keys().priv);
  o.checkpoint_every = every;
  return o;
}

VerifyResult verify(const std::string& text, const wt::audit::PublicKey* key = nullptr) {
  VerifyOptions o;
  o.public_key = key;
  return verify_log_text(text, o);
}

// Recomputes every hash in order, as someone rewriting the file without the key would.
std::string rechain(const std::vector<std::string>& lines) {
  std::string prev(wt::audit::kGenesisHash), out;
  for (const auto& l : lines) {
    json j = json::parse(l);
    j.erase("prev_hash");
    j.erase("entry_hash");
    if (wt::audit::is_checkpoint(j)) j["head"] = prev;  // keep the checkpoint's claim consistent
    const std::string h = wt::sha256_hex(wt::audit::canonical(j), prev);
    j["prev_hash"] = prev;
    j["entry_hash"] = h;
    out += wt::audit::canonical(j) + "\n";
    prev = h;
  }
  return out;
}

}  // namespace

TEST(AuditLog, WritesAVerifiableChainInTheSeedFormat) {
  const std::string path = write_log("chain.jsonl", 20);
  const VerifyResult r = verify_log_file(path, {});
  EXPECT_TRUE(r.valid()) << r.message();
  EXPECT_EQ(r.entries, 20u);
  EXPECT_EQ(r.message(), "chain verified, 20 entries");
  const auto lines = lines_of(slurp(path));
  ASSERT_EQ(lines.size(), 20u);
  // The seed's rule, recomputed here from the parsed line.
  json first = json::parse(lines[0]);
  EXPECT_EQ(first["prev_hash"], std::string(wt::audit::kGenesisHash));
  const std::string entry_hash = first["entry_hash"];
  first.erase("prev_hash");
  first.erase("entry_hash");
  EXPECT_EQ(wt::sha256_hex(wt::audit::canonical(first), wt::audit::kGenesisHash), entry_hash);
  EXPECT_EQ(json::parse(lines[1])["prev_hash"], entry_hash);
  for (const char* key : {"timestamp", "gpu_index", "uuid", "workload_type", "confidence", "reasons", "features",
                          "window_start", "window_end"})
    EXPECT_TRUE(first.contains(key)) << key;
}

TEST(AuditLog, SeedToolLogsVerify) {
  for (const char* name : {"seed_log.jsonl", "seed_log_sorted.jsonl"}) {
    const VerifyResult r = verify_log_file(std::string(WT_FIXTURE_DIR) + "/audit/" + name, {});
    EXPECT_TRUE(r.valid()) << name << ": " << r.message();
    EXPECT_EQ(r.entries, 3u);
  }
}

TEST(AuditLog, EverySingleByteChangeIsDetected) {
  const std::string text = slurp(write_log("bytes.jsonl", 20));
  ASSERT_TRUE(verify(text).valid());
  std::size_t checked = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    for (const char flip : {'\x01', '\x40'}) {
      std::string t = text;
      t[i] = static_cast<char>(t[i] ^ flip);
      const VerifyResult r = verify(t);
      ASSERT_FALSE(r.valid()) << "byte " << i << " changed went unnoticed";
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2 * text.size());
}

TEST(AuditLog, EditIsReportedAtItsLine) {
  auto lines = lines_of(slurp(write_log("edit.jsonl", 20)));
  const auto pos = lines[6].find("\"confidence\":");
  lines[6][pos + 14] = lines[6][pos + 14] == '9' ? '8' : '9';
  const VerifyResult r = verify(joined(lines));
  EXPECT_EQ(r.kind, BreakKind::Edited);
  EXPECT_EQ(r.first_bad_line, 7u);
  EXPECT_EQ(r.entries, 6u);
  EXPECT_EQ(r.message().rfind("line 7: edited: ", 0), 0u) << r.message();
}

TEST(AuditLog, DeletedReorderedInsertedEntries) {
  const auto lines = lines_of(slurp(write_log("links.jsonl", 20)));
  auto deleted = lines;
  deleted.erase(deleted.begin() + 9);
  VerifyResult r = verify(joined(deleted));
  EXPECT_EQ(r.kind, BreakKind::Deleted) << r.message();
  EXPECT_EQ(r.first_bad_line, 10u);

  auto swapped = lines;
  std::swap(swapped[4], swapped[5]);
  r = verify(joined(swapped));
  EXPECT_EQ(r.kind, BreakKind::Reordered) << r.message();
  EXPECT_EQ(r.first_bad_line, 5u);

  auto copied = lines;
  copied.insert(copied.begin() + 12, lines[3]);
  r = verify(joined(copied));
  EXPECT_EQ(r.kind, BreakKind::Inserted) << r.message();
  EXPECT_EQ(r.first_bad_line, 13u);
  EXPECT_NE(r.why.find("copy of line 4"), std::string::npos) << r.why;

  // A forged entry that links correctly to the one before it: the next one does not link to it.
  json forged = payload(99);
  const std::string prev = json::parse(lines[7])["entry_hash"];
  const std::string h = wt::sha256_hex(wt::audit::canonical(forged), prev);
  forged["prev_hash"] = prev;
  forged["entry_hash"] = h;
  auto inserted = lines;
  inserted.insert(inserted.begin() + 8, wt::audit::canonical(forged));
  r = verify(joined(inserted));
  EXPECT_EQ(r.kind, BreakKind::Inserted) << r.message();
  EXPECT_EQ(r.first_bad_line, 9u);

  // A self-consistent line with a made-up predecessor.
  json stray = payload(98);
  const std::string nowhere(64, '1');
  stray["entry_hash"] = wt::sha256_hex(wt::audit::canonical(stray), nowhere);
  stray["prev_hash"] = nowhere;
  auto foreign = lines;
  foreign.insert(foreign.begin() + 2, wt::audit::canonical(stray));
  r = verify(joined(foreign));
  EXPECT_EQ(r.kind, BreakKind::Inserted) << r.message();
  EXPECT_EQ(r.first_bad_line, 3u);

  auto blank = lines;
  blank.insert(blank.begin() + 1, "");
  EXPECT_EQ(verify(joined(blank)).kind, BreakKind::Inserted);
}

TEST(AuditLog, SignedCheckpointsCatchTruncationAndRewrites) {
  const std::string path = write_log("signed.jsonl", 20, signing(5));
  const auto pub = wt::audit::PublicKey::load(keys().pub);
  const std::string text = slurp(path);
  auto lines = lines_of(text);
  ASSERT_EQ(lines.size(), 25u);  // 20 entries, 4 interval checkpoints, a final one on close
  VerifyResult r = verify(text, &pub);
  EXPECT_TRUE(r.valid()) << r.message();
  EXPECT_EQ(r.checkpoints, 5u);
  EXPECT_TRUE(r.signatures_checked);

  // Cut the end: the chain alone cannot tell (the seed's gap), the key can.
  const std::vector<std::string> cut(lines.begin(), lines.end() - 3);
  EXPECT_TRUE(verify(joined(cut)).valid());
  r = verify(joined(cut), &pub);
  EXPECT_EQ(r.kind, BreakKind::Truncated) << r.message();
  EXPECT_EQ(r.first_bad_line, 23u);
  // ... even when cut right after an interval checkpoint.
  const std::vector<std::string> at_checkpoint(lines.begin(), lines.begin() + 18);
  ASSERT_TRUE(wt::audit::is_checkpoint(json::parse(at_checkpoint.back())));
  EXPECT_EQ(verify(joined(at_checkpoint), &pub).kind, BreakKind::Truncated);

  // Rewritten without the key: hashes and checkpoint heads recomputed, signatures cannot be.
  auto edited = lines;
  edited[2].replace(edited[2].find("INFERENCE"), 9, "TRAINING");
  const std::string rewritten = rechain(edited);
  EXPECT_TRUE(verify(rewritten).valid());
  r = verify(rewritten, &pub);
  EXPECT_EQ(r.kind, BreakKind::BadSignature) << r.message();
  EXPECT_EQ(r.first_bad_line, 6u);

  // Deleting a middle entry and rechaining: the signed count no longer matches.
  auto shorter = lines;
  shorter.erase(shorter.begin() + 1);
  r = verify(rechain(shorter));
  EXPECT_EQ(r.kind, BreakKind::Truncated) << r.message();
  EXPECT_EQ(r.first_bad_line, 5u);

  // The wrong public key.
  const std::string other_prefix = fresh("other");
  const auto other = wt::audit::generate_key_pair(other_prefix);
  const auto other_pub = wt::audit::PublicKey::load(other.public_path);
  r = verify(text, &other_pub);
  EXPECT_EQ(r.kind, BreakKind::BadSignature) << r.message();
  EXPECT_EQ(r.first_bad_line, 6u);
}

TEST(AuditLog, TornTailIsReportedAndResumedWithoutLosingEntries) {
  const std::string path = write_log("torn.jsonl", 20);
  const std::string good = slurp(path);
  const auto lines = lines_of(good);
  spit(path, good + lines[5].substr(0, lines[5].size() / 2));
  VerifyResult r = verify_log_file(path, {});
  EXPECT_EQ(r.kind, BreakKind::TornTail) << r.message();
  EXPECT_EQ(r.first_bad_line, 21u);
  EXPECT_EQ(r.entries, 20u);
  EXPECT_NE(r.why.find("not tampering"), std::string::npos);
  {
    AuditLog log(path, {});
    EXPECT_NE(log.recovery_note().find("line 21 was torn"), std::string::npos) << log.recovery_note();
    EXPECT_EQ(log.entries(), 20u);
    log.append(payload(20));
    log.close();
  }
  const std::string after = slurp(path);
  EXPECT_EQ(after.substr(0, good.size()), good);
  r = verify_log_file(path, {});
  EXPECT_TRUE(r.valid()) << r.message();
  EXPECT_EQ(r.entries, 21u);
}

TEST(AuditLog, SecondWriterIsRefused) {
  const std::string path = fresh("locked.jsonl");
  AuditLog first(path, {});
  first.append(payload(0));
  try {
    AuditLog second(path, {});
    FAIL() << "a second writer opened a locked log";
  } catch (const wt::InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find("another writer"), std::string::npos) << msg;
    EXPECT_NE(msg.find("pid " + std::to_string(::getpid())), std::string::npos) << msg;
  }
  first.close();
  AuditLog third(path, {});  // the lock went with the first writer
  EXPECT_EQ(third.entries(), 1u);
}

TEST(AuditLog, RefusesToExtendABrokenChain) {
  const std::string path = write_log("broken.jsonl", 5);
  auto lines = lines_of(slurp(path));
  std::swap(lines[1], lines[2]);
  spit(path, joined(lines));
  try {
    AuditLog log(path, {});
    FAIL() << "opened a tampered log for writing";
  } catch (const wt::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2: reordered"), std::string::npos) << e.what();
  }
}

TEST(AuditLog, RejectsPayloadsItCannotChain) {
  const std::string path = fresh("payloads.jsonl");
  AuditLog log(path, {});
  EXPECT_THROW(log.append(json::array()), std::invalid_argument);
  EXPECT_THROW(log.append({{"prev_hash", "x"}}), std::invalid_argument);
  EXPECT_THROW(log.append({{"type", "checkpoint"}}), std::invalid_argument);
  EXPECT_THROW(log.append({{"x", std::nan("")}}), std::invalid_argument);
  log.append({{"x", 1}});
  log.close();
  EXPECT_EQ(verify_log_file(path, {}).entries, 1u);
}

TEST(AuditLog, ResumesASignedLogAcrossSessions) {
  const std::string path = write_log("sessions.jsonl", 3, signing(0));
  {
    AuditLog log(path, signing(0));
    log.append(payload(3));
  }
  const auto pub = wt::audit::PublicKey::load(keys().pub);
  const VerifyResult r = verify_log_file(path, {&pub, true});
  EXPECT_TRUE(r.valid()) << r.message();
  EXPECT_EQ(r.entries, 6u);  // 3, final checkpoint, 1, final checkpoint
  EXPECT_EQ(r.checkpoints, 2u);
}

// A writer killed mid-flight leaves a chain that verifies up to at most one torn line, and a
// new writer continues it with every earlier entry intact.
TEST(AuditLog, SurvivesKill9DuringHeavyWriting) {
  const std::string path = fresh("killed.jsonl");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    try {
      AuditLogOptions o;
      o.fsync_every = 0;  // as fast as it can
      AuditLog log(path, std::move(o));
      for (int i = 0;; ++i) log.append(payload(i));
    } catch (...) {
    }
    ::_exit(1);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline &&
         (!std::filesystem::exists(path) || std::filesystem::file_size(path) < (1u << 20)))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the writer stopped before it was killed";

  const std::string before = slurp(path);
  VerifyResult r = verify_log_text(before, {});
  ASSERT_TRUE(r.valid() || r.kind == BreakKind::TornTail) << r.message();
  ASSERT_GT(r.entries, 100u);
  const std::size_t survived = r.entries;
  {
    AuditLog log(path, {});
    EXPECT_EQ(log.entries(), survived);
    log.append(payload(-1));
    log.close();
  }
  const std::string after = slurp(path);
  EXPECT_EQ(after.compare(0, r.good_bytes, before, 0, r.good_bytes), 0);
  r = verify_log_file(path, {});
  EXPECT_TRUE(r.valid()) << r.message();
  EXPECT_EQ(r.entries, survived + 1);
}
