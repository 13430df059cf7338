#include "audit/mapped_file.hpp"

#include <sys/mman.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "core/diagnostic.hpp"

namespace wt::audit {

MappedFile::MappedFile(int fd, const std::string& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw InputError(path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw InputError(path + ": not a regular file");
  size_ = static_cast<std::size_t>(st.st_size);
  if (size_ == 0) return;  // mmap refuses empty mappings
  data_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
  if (data_ == MAP_FAILED) {
    data_ = nullptr;
    throw InputError(path + ": cannot be mapped: " + std::strerror(errno));
  }
  ::madvise(data_, size_, MADV_SEQUENTIAL);
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(data_, size_);
}

}  // namespace wt::audit
