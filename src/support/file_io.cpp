#include "support/file_io.h"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace helionc {

namespace {

std::string errno_text() { return std::strerror(errno); }

// Reads everything from `fd` into `out`; false on a read error (errno set).
bool read_all(int fd, std::string& out) {
  char buffer[65536];
  while (true) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) return true;
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    out.append(buffer, static_cast<size_t>(n));
  }
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

mode_t current_umask() {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

}  // namespace

Expected<std::string> read_file(const std::string& path) {
  std::string content;
  if (path == "-") {
    if (!read_all(STDIN_FILENO, content)) {
      return Error{"cannot read standard input: " + errno_text()};
    }
    return content;
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{fmt::format("cannot open `{}`: {}", path, errno_text())};
  struct stat info {};
  if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
    ::close(fd);
    return Error{fmt::format("cannot read `{}`: it is a directory", path)};
  }
  bool ok = read_all(fd, content);
  std::string error = ok ? "" : errno_text();
  ::close(fd);
  if (!ok) return Error{fmt::format("cannot read `{}`: {}", path, error)};
  return content;
}

Status write_file_atomically(const std::string& path, std::string_view content) {
  if (path == "-") {
    if (!write_all(STDOUT_FILENO, content)) {
      return Error{"cannot write to standard output: " + errno_text()};
    }
    return {};
  }
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path directory = target.parent_path();
  std::string name = target.filename().string();
  if (name.empty() || name == "." || name == "..") {
    return Error{fmt::format("cannot write `{}`: not a file name", path)};
  }
  // Same directory, so rename() stays within one file system and is atomic. Hidden so that a
  // crash leaves no file matching the user's globs.
  std::string temp = (directory / ("." + name + ".tmp.XXXXXX")).string();
  int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    return Error{fmt::format("cannot create a temporary file for `{}`: {}", path, errno_text())};
  }

  auto fail = [&](std::string_view what) -> Status {
    std::string message = fmt::format("cannot {} `{}`: {}", what, path, errno_text());
    if (fd >= 0) ::close(fd);
    ::unlink(temp.c_str());
    return Error{std::move(message)};
  };
  struct stat existing {};
  mode_t mode =
      ::stat(path.c_str(), &existing) == 0 ? (existing.st_mode & 07777) : (0666 & ~current_umask());
  if (::fchmod(fd, mode) != 0) return fail("set the permissions of");
  if (!write_all(fd, content)) return fail("write");
  int closed = ::close(fd);
  fd = -1;
  if (closed != 0) return fail("write");
  // No fsync: the rename alone guarantees that readers (and Make) see the old file or the whole
  // new one, which is what a build needs; durability across a power cut is not worth the
  // milliseconds per compile that fsync costs (GCC and Clang do not sync their outputs either).
  if (::rename(temp.c_str(), path.c_str()) != 0) return fail("replace");
  return {};
}

}  // namespace helionc
