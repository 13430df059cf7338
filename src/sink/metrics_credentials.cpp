#include "sink/metrics_credentials.hpp"

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include <cstdio>
#include <optional>

#include "core/base64.hpp"
#include "core/diagnostic.hpp"

namespace wt {

namespace {

struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct StoreFree {
  void operator()(X509_STORE* s) const { X509_STORE_free(s); }
};
struct ChainFree {
  void operator()(STACK_OF(X509) * c) const { sk_X509_pop_free(c, X509_free); }
};
struct FileClose {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

std::unique_ptr<std::FILE, FileClose> open_pem(const std::string& path, const std::string& what) {
  std::unique_ptr<std::FILE, FileClose> f(std::fopen(path.c_str(), "r"));
  if (!f) throw InputError(path + ": cannot read the " + what + " file");
  return f;
}

}  // namespace

struct MetricsCredentials::Loaded {
  std::unique_ptr<X509, X509Free> cert;
  std::unique_ptr<STACK_OF(X509), ChainFree> chain;  // the certificates after the first, for the client to build a path
  std::unique_ptr<EVP_PKEY, KeyFree> key;
  std::unique_ptr<X509_STORE, StoreFree> client_ca;
  std::string authorization, challenge;  // the header demanded and the answer to a request without it; "" = none
};

std::shared_ptr<const MetricsCredentials::Loaded> MetricsCredentials::load(const MetricsAccess& a) {
  auto l = std::make_shared<Loaded>();
  // PEM reads end on an error (no more certificates) left in this thread's queue, where a TLS call
  // on the same thread would find it.
  struct ClearErrors {
    ~ClearErrors() { ERR_clear_error(); }
  } clear_errors;
  if (a.tls()) {
    const std::string pair = a.cert_file + ", " + a.key_file;
    const std::string why = ": cannot load the metrics certificate and its key (PEM files, the key the certificate's)";
    {
      auto f = open_pem(a.cert_file, "metrics certificate");
      l->cert.reset(PEM_read_X509(f.get(), nullptr, nullptr, nullptr));
      if (!l->cert) throw InputError(pair + why);
      l->chain.reset(sk_X509_new_null());
      while (X509* next = PEM_read_X509(f.get(), nullptr, nullptr, nullptr)) sk_X509_push(l->chain.get(), next);
    }
    {
      auto f = open_pem(a.key_file, "metrics key");
      l->key.reset(PEM_read_PrivateKey(f.get(), nullptr, nullptr, nullptr));
    }
    if (!l->key || X509_check_private_key(l->cert.get(), l->key.get()) != 1) throw InputError(pair + why);
  }
  if (!a.client_ca_file.empty()) {
    // httplib would take a bundle without a certificate and then turn every scraper away at
    // the handshake, with nothing said.
    auto f = open_pem(a.client_ca_file, "client CA");
    l->client_ca.reset(X509_STORE_new());
    int certificates = 0;
    while (X509* ca = PEM_read_X509(f.get(), nullptr, nullptr, nullptr)) {
      X509_STORE_add_cert(l->client_ca.get(), ca);
      X509_free(ca);
      ++certificates;
    }
    if (certificates == 0) throw InputError(a.client_ca_file + ": no PEM certificate in the client CA file");
  }
  if (!a.bearer_token_file.empty()) {
    l->authorization = "Bearer " + read_bearer_token_file(a.bearer_token_file);
    l->challenge = "Bearer realm=\"workloadtruth\"";
  } else if (!a.basic_auth_file.empty()) {
    const BasicCredentials b = read_basic_auth_file(a.basic_auth_file);
    l->authorization = "Basic " + base64_encode(b.user + ":" + b.password);
    l->challenge = "Basic realm=\"workloadtruth\"";
  }
  return l;
}

MetricsCredentials::MetricsCredentials(MetricsAccess files, Note note) : files_(std::move(files)), note_(std::move(note)) {
  loaded_stamps_ = stamps();
  loaded_ = load(files_);
}

MetricsCredentials::~MetricsCredentials() = default;

std::vector<FileStamp> MetricsCredentials::stamps() const {
  std::vector<FileStamp> out;
  for (const std::string* path :
       {&files_.cert_file, &files_.key_file, &files_.client_ca_file, &files_.bearer_token_file, &files_.basic_auth_file})
    out.push_back(file_stamp(*path));
  return out;
}

void MetricsCredentials::refresh() {
  const std::vector<FileStamp> now = stamps();
  const std::lock_guard lock(mutex_);
  if (now == loaded_stamps_ || now == failed_stamps_) return;
  try {
    loaded_ = load(files_);
    loaded_stamps_ = now;
    failed_stamps_.clear();
    if (note_) note_("the metrics endpoint reloaded its credentials: a file changed", false);
  } catch (const InputError& e) {
    failed_stamps_ = now;
    if (note_) note_(std::string(e.what()) + "; the metrics endpoint keeps the credentials it had", true);
  }
}

std::shared_ptr<const MetricsCredentials::Loaded> MetricsCredentials::current() const {
  const std::lock_guard lock(mutex_);
  return loaded_;
}

bool MetricsCredentials::authorized(std::string_view got) const {
  const auto l = current();
  const std::string& want = l->authorization;
  if (want.empty()) return true;
  return got.size() == want.size() && CRYPTO_memcmp(got.data(), want.data(), got.size()) == 0;
}

std::string MetricsCredentials::challenge() const { return current()->challenge; }

bool MetricsCredentials::apply(SSL* ssl) const {
  const auto l = current();  // held until the connection took its own references
  if (!l->cert) return false;
  if (SSL_use_cert_and_key(ssl, l->cert.get(), l->key.get(), l->chain.get(), 1) != 1) return false;
  return !l->client_ca || SSL_set1_verify_cert_store(ssl, l->client_ca.get()) == 1;
}

}  // namespace wt
