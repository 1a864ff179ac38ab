#include "support/file_io.h"

#include <fcntl.h>
#include <fmt/core.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace helionc {

namespace {

std::string errno_text() { return std::strerror(errno); }

// Reads everything from `fd` into `out`, or stops once it holds more than `max_bytes`; false on
// a read error (errno set).
bool read_all(int fd, std::string& out, size_t max_bytes) {
  char buffer[65536];
  while (out.size() <= max_bytes) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) return true;
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    out.append(buffer, static_cast<size_t>(n));
  }
  return true;
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

Expected<std::string> read_file(const std::string& path, size_t max_bytes) {
  std::string content;
  if (path == "-") {
    if (!read_all(STDIN_FILENO, content, max_bytes)) {
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
  bool ok = read_all(fd, content, max_bytes);
  std::string error = ok ? "" : errno_text();
  ::close(fd);
  if (!ok) return Error{fmt::format("cannot read `{}`: {}", path, error)};
  return content;
}

namespace {

namespace fs = std::filesystem;

// Whether `link` is one of procfs's links (/proc/self/fd/N, which /dev/stdout is): the kernel
// resolves those to an open file, and the text they read as names no directory entry that a
// rename could replace.
bool is_proc_link(const fs::path& link) {
  struct statfs info {};
  const fs::path directory = link.has_parent_path() ? link.parent_path() : fs::path(".");
  return ::statfs(directory.c_str(), &info) == 0 && info.f_type == PROC_SUPER_MAGIC;
}

// Where a write to a path lands: a name to replace atomically, or (through a procfs link) only
// the open file itself.
struct LinkTarget {
  fs::path path;
  bool through_proc = false;
};

// Follows `path` through symbolic links to the name a write would reach. The last component
// need not exist (a new file, or a dangling link that the write creates, as GCC does).
Expected<LinkTarget> follow_links(const std::string& original) {
  // Linux gives up after 40 links too (ELOOP).
  constexpr int kMaxLinks = 40;
  fs::path path(original);
  for (int links = 0; links < kMaxLinks; ++links) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return LinkTarget{path};
    if (is_proc_link(path)) return LinkTarget{path, /*through_proc=*/true};
    std::error_code error;
    fs::path target = fs::read_symlink(path, error);
    if (error) {
      return Error{fmt::format("cannot read the link `{}`: {}", path.string(), error.message())};
    }
    path = target.is_absolute() ? target : path.parent_path() / target;
  }
  return Error{fmt::format("cannot write `{}`: too many levels of symbolic links", original)};
}

// Writes in place, for targets that cannot be replaced by a rename: devices, FIFOs, and files
// reached through links that name no directory entry (/dev/stdout is /proc/self/fd/1).
Status write_through(const std::string& path, std::string_view content, bool truncate) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | (truncate ? O_TRUNC : 0));
  if (fd < 0) return Error{fmt::format("cannot open `{}` for writing: {}", path, errno_text())};
  bool ok = write_all(fd, content);
  std::string error = ok ? "" : errno_text();
  if (::close(fd) != 0 && ok) {
    ok = false;
    error = errno_text();
  }
  if (!ok) return Error{fmt::format("cannot write `{}`: {}", path, error)};
  return {};
}

// Replaces the file `target` (or creates it) by renaming a temporary file of the same
// directory over it; `shown` is the path as the user gave it, for messages.
Status replace_atomically(const fs::path& target, const std::string& shown,
                          std::string_view content) {
  fs::path directory = target.parent_path();
  std::string name = target.filename().string();
  if (name.empty() || name == "." || name == "..") {
    return Error{fmt::format("cannot write `{}`: not a file name", shown)};
  }
  // Same directory, so rename() stays within one file system and is atomic. Hidden so that a
  // crash leaves no file matching the user's globs.
  std::string temp = (directory / ("." + name + ".tmp.XXXXXX")).string();
  int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    return Error{fmt::format("cannot create a temporary file for `{}`: {}", shown, errno_text())};
  }

  auto fail = [&](std::string_view what) -> Status {
    std::string message = fmt::format("cannot {} `{}`: {}", what, shown, errno_text());
    if (fd >= 0) ::close(fd);
    ::unlink(temp.c_str());
    return Error{std::move(message)};
  };
  struct stat existing {};
  mode_t mode = ::stat(target.c_str(), &existing) == 0 ? (existing.st_mode & 07777)
                                                       : (0666 & ~current_umask());
  if (::fchmod(fd, mode) != 0) return fail("set the permissions of");
  if (!write_all(fd, content)) return fail("write");
  int closed = ::close(fd);
  fd = -1;
  if (closed != 0) return fail("write");
  // No fsync: the rename alone guarantees that readers (and Make) see the old file or the whole
  // new one, which is what a build needs; durability across a power cut is not worth the
  // milliseconds per compile that fsync costs (GCC and Clang do not sync their outputs either).
  if (::rename(temp.c_str(), target.c_str()) != 0) return fail("replace");
  return {};
}

bool same_inode(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

}  // namespace

Status write_output_file(const std::string& path, std::string_view content) {
  if (path == "-") {
    if (!write_all(STDOUT_FILENO, content)) {
      return Error{"cannot write to standard output: " + errno_text()};
    }
    return {};
  }
  // What the path reaches, through any links, decides how it is written.
  struct stat reached {};
  const bool exists = ::stat(path.c_str(), &reached) == 0;
  if (!exists && errno != ENOENT) {
    return Error{fmt::format("cannot write `{}`: {}", path, errno_text())};
  }
  if (exists) {
    if (S_ISCHR(reached.st_mode) || S_ISFIFO(reached.st_mode)) {
      return write_through(path, content, /*truncate=*/false);
    }
    if (S_ISDIR(reached.st_mode)) {
      return Error{fmt::format("cannot write `{}`: it is a directory", path)};
    }
    if (!S_ISREG(reached.st_mode)) {
      return Error{fmt::format(
          "cannot write `{}`: it is neither a regular file, a character device nor a FIFO", path)};
    }
  }
  Expected<LinkTarget> target = follow_links(path);
  if (!target) return Error{target.error()};
  // `-o /dev/stdout` with standard output redirected to a file: the file the descriptor holds
  // is written, as the shell that opened it expects, not a new one renamed over its name.
  if (target->through_proc) return write_through(path, content, /*truncate=*/true);
  return replace_atomically(target->path, path, content);
}

bool same_file(const std::string& a, const std::string& b) {
  if (a == "-" || b == "-") return false;
  struct stat info_a {};
  struct stat info_b {};
  const bool a_exists = ::stat(a.c_str(), &info_a) == 0;
  const bool b_exists = ::stat(b.c_str(), &info_b) == 0;
  if (a_exists && b_exists) {
    // Devices are shared by design (a terminal is both stdin and stdout); only files clash.
    return S_ISREG(info_a.st_mode) && S_ISREG(info_b.st_mode) && same_inode(info_a, info_b);
  }
  std::error_code error_a;
  std::error_code error_b;
  fs::path normal_a = fs::weakly_canonical(a, error_a);
  fs::path normal_b = fs::weakly_canonical(b, error_b);
  return !error_a && !error_b && normal_a == normal_b;
}

}  // namespace helionc
