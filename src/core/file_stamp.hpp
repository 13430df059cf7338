// What tells a file that changed from one that did not, without reading it: its inode (a
// Kubernetes secret or a certificate renewal swaps a link), size and modification time. For the
// files re-read while a watch runs for months: mappings, credentials, tokens.
#pragma once

#include <sys/types.h>

#include <string>

namespace wt {

struct FileStamp {
  ino_t inode = 0;
  off_t size = -1;  // -1: not there (or "" given)
  long long mtime_ns = -1;
  bool exists() const { return size >= 0; }
  bool operator==(const FileStamp&) const = default;
};

FileStamp file_stamp(const std::string& path);

}  // namespace wt
