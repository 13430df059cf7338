#include "mcp/line_channel.hpp"

#include <unistd.h>

#include <cerrno>

namespace wt::mcp {

bool write_line(int fd, const std::string& line) {
  const std::string out = line + '\n';
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::write(fd, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace wt::mcp
