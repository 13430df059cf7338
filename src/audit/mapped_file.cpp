#include "audit/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

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

MappedFile::MappedFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path + ": " + std::strerror(errno));
  try {
    MappedFile map(fd, path);
    std::swap(data_, map.data_);
    std::swap(size_, map.size_);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(data_, size_);
}

}  // namespace wt::audit
