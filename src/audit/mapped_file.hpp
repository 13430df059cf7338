// A file mapped read-only into memory: the verifier walks a million-line log without copying it.
#pragma once

#include <string>
#include <string_view>

namespace wt::audit {

class MappedFile {
 public:
  // Maps the file open on `fd` (not taking ownership); `path` names it in errors (InputError).
  MappedFile(int fd, const std::string& path);
  // Opens `path` to map it (the mapping outlives the descriptor, closed at once).
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::string_view text() const { return {static_cast<const char*>(data_), size_}; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace wt::audit
