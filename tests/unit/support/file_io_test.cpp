#include <catch2/catch.hpp>

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "support/file_io.h"

using namespace helionc;
namespace fs = std::filesystem;

namespace {
fs::path fresh_directory(std::string_view name) {
  fs::path dir = fs::temp_directory_path() / fmt::format("helionc_file_io_{}", name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}
size_t file_count(const fs::path& dir) {
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}
}  // namespace

TEST_CASE("read_file reads whole files and reports failures", "[file_io]") {
  fs::path dir = fresh_directory("read");
  std::string content("a\0b\nc", 5);
  std::ofstream(dir / "x.bin", std::ios::binary) << content;
  Expected<std::string> read = read_file((dir / "x.bin").string());
  REQUIRE(read.ok());
  CHECK(*read == content);

  Expected<std::string> missing = read_file((dir / "none.py").string());
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error() ==
        fmt::format("cannot open `{}`: No such file or directory", (dir / "none.py").string()));
  Expected<std::string> directory = read_file(dir.string());
  REQUIRE_FALSE(directory.ok());
  CHECK(directory.error() == fmt::format("cannot read `{}`: it is a directory", dir.string()));
  fs::remove_all(dir);
}

TEST_CASE("write_output_file replaces the file and leaves no temporary", "[file_io]") {
  fs::path dir = fresh_directory("write");
  fs::path target = dir / "out_pallas.py";
  REQUIRE(write_output_file(target.string(), "first\n").ok());
  CHECK(*read_file(target.string()) == "first\n");
  // New files get 0666 & ~umask, like any other file the user creates.
  mode_t mask = ::umask(0);
  ::umask(mask);
  struct stat info {};
  REQUIRE(::stat(target.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == (0666 & ~mask));
  // An existing file keeps its permissions.
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  REQUIRE(write_output_file(target.string(), "second\n").ok());
  CHECK(*read_file(target.string()) == "second\n");
  REQUIRE(::stat(target.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0640);
  CHECK(file_count(dir) == 1);
  fs::remove_all(dir);
}

TEST_CASE("a failed write leaves the target untouched and no temporary", "[file_io]") {
  fs::path dir = fresh_directory("fail");
  // The target is a directory: refused before anything is written.
  fs::create_directories(dir / "taken" / "inside");
  Status status = write_output_file((dir / "taken").string(), "data");
  REQUIRE_FALSE(status.ok());
  CHECK(status.error() ==
        fmt::format("cannot write `{}`: it is a directory", (dir / "taken").string()));
  CHECK(file_count(dir) == 1);
  CHECK(fs::is_directory(dir / "taken" / "inside"));
  // A path through a regular file (root can write anywhere, so no permission test).
  std::ofstream(dir / "plain") << "x";
  Status under_file = write_output_file((dir / "plain" / "out.py").string(), "data");
  REQUIRE_FALSE(under_file.ok());
  CHECK(under_file.error() ==
        fmt::format("cannot write `{}`: Not a directory", (dir / "plain" / "out.py").string()));
  CHECK(*read_file((dir / "plain").string()) == "x");
  CHECK(file_count(dir) == 2);
  // A directory that does not exist.
  Status nowhere = write_output_file((dir / "no" / "out.py").string(), "data");
  REQUIRE_FALSE(nowhere.ok());
  CHECK(nowhere.error().starts_with("cannot create a temporary file for"));
  fs::remove_all(dir);
}

namespace {
// Runs `body` with file descriptor `fd` redirected to a pipe; returns the pipe's other end.
struct Redirect {
  Redirect(int fd, bool reading) : fd_(fd), saved_(::dup(fd)) {
    REQUIRE(::pipe(pipe_) == 0);
    ::dup2(reading ? pipe_[0] : pipe_[1], fd);
    ::close(reading ? pipe_[0] : pipe_[1]);
  }
  ~Redirect() {
    ::dup2(saved_, fd_);
    ::close(saved_);
  }
  int fd_, saved_, pipe_[2];
};
}  // namespace

TEST_CASE("\"-\" reads standard input and writes standard output", "[file_io]") {
  {
    Redirect in(STDIN_FILENO, /*reading=*/true);
    std::string data(100000, 'x');  // more than one read() and than a pipe buffer holds
    data += "end";
    std::thread writer([&] {
      size_t done = 0;
      while (done < data.size())
        done += ::write(in.pipe_[1], data.data() + done, data.size() - done);
      ::close(in.pipe_[1]);
    });
    Expected<std::string> read = read_file("-");
    writer.join();
    REQUIRE(read.ok());
    CHECK(*read == data);
  }
  {
    std::fflush(stdout);
    Redirect out(STDOUT_FILENO, /*reading=*/false);
    REQUIRE(write_output_file("-", "to stdout\n").ok());
    ::close(STDOUT_FILENO);  // so the read below sees the end
    char buffer[64] = {};
    ssize_t n = ::read(out.pipe_[0], buffer, sizeof buffer);
    ::close(out.pipe_[0]);
    CHECK(std::string(buffer, n > 0 ? n : 0) == "to stdout\n");
  }
}

TEST_CASE("a relative path in the current directory works", "[file_io]") {
  fs::path dir = fresh_directory("relative");
  fs::path saved = fs::current_path();
  fs::current_path(dir);
  Status status = write_output_file("out.py", "x = 1\n");
  fs::current_path(saved);
  REQUIRE(status.ok());
  CHECK(*read_file((dir / "out.py").string()) == "x = 1\n");
  CHECK(file_count(dir) == 1);
  fs::remove_all(dir);
}

namespace {
bool is_link(const fs::path& path) { return fs::is_symlink(fs::symlink_status(path)); }
}  // namespace

TEST_CASE("a symbolic link is followed and stays a link", "[file_io][output_paths]") {
  fs::path dir = fresh_directory("symlink");
  fs::create_directories(dir / "real");
  std::ofstream(dir / "real" / "out.py") << "old\n";
  fs::create_symlink("real/out.py", dir / "link.py");  // relative to the link's directory
  fs::create_symlink("link.py", dir / "chain.py");     // a link to a link
  REQUIRE(write_output_file((dir / "chain.py").string(), "new\n").ok());
  CHECK(is_link(dir / "chain.py"));
  CHECK(is_link(dir / "link.py"));
  CHECK(*read_file((dir / "real" / "out.py").string()) == "new\n");
  // The temporary went next to the target, and is gone.
  CHECK(file_count(dir / "real") == 1);
  CHECK(file_count(dir) == 3);

  // A dangling link creates its target, as GCC does.
  fs::create_symlink("real/new.py", dir / "dangling.py");
  REQUIRE(write_output_file((dir / "dangling.py").string(), "made\n").ok());
  CHECK(is_link(dir / "dangling.py"));
  CHECK(*read_file((dir / "real" / "new.py").string()) == "made\n");

  // A loop is an error and writes nothing.
  fs::create_symlink("loop_b", dir / "loop_a");
  fs::create_symlink("loop_a", dir / "loop_b");
  Status loop = write_output_file((dir / "loop_a").string(), "x");
  REQUIRE_FALSE(loop.ok());
  CHECK(loop.error().find("symbolic links") != std::string::npos);
  CHECK(is_link(dir / "loop_a"));
  fs::remove_all(dir);
}

TEST_CASE("a FIFO is written through, not replaced", "[file_io][output_paths]") {
  fs::path dir = fresh_directory("fifo");
  fs::path fifo = dir / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string received;
  std::thread reader([&] { received = *read_file(fifo.string()); });
  std::string data(200000, 'y');  // more than a pipe buffer holds
  Status status = write_output_file(fifo.string(), data);
  reader.join();
  REQUIRE(status.ok());
  CHECK(received == data);
  CHECK(fs::is_fifo(fs::symlink_status(fifo)));
  CHECK(file_count(dir) == 1);
  fs::remove_all(dir);
}

TEST_CASE("a character device is written through, not replaced", "[file_io][output_paths]") {
  // A null device of our own in the temporary directory, never the machine's /dev/null. Making
  // device nodes needs CAP_MKNOD (CI runs as root); elsewhere the case is skipped.
  fs::path dir = fresh_directory("device");
  fs::path null_device = dir / "null";
  if (::mknod(null_device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
    WARN("cannot make a device node here (" << std::strerror(errno) << "): skipped");
    fs::remove_all(dir);
    return;
  }
  REQUIRE(write_output_file(null_device.string(), "discarded\n").ok());
  struct stat info {};
  REQUIRE(::lstat(null_device.c_str(), &info) == 0);
  CHECK(S_ISCHR(info.st_mode));
  CHECK(info.st_rdev == makedev(1, 3));
  // Through a link too, as /dev/stdout and the like are.
  fs::create_symlink("null", dir / "to_null");
  REQUIRE(write_output_file((dir / "to_null").string(), "discarded\n").ok());
  REQUIRE(::lstat(null_device.c_str(), &info) == 0);
  CHECK(S_ISCHR(info.st_mode));
  CHECK(is_link(dir / "to_null"));
  CHECK(file_count(dir) == 2);
  fs::remove_all(dir);
}

TEST_CASE("a /proc/self/fd link is written in place", "[file_io][output_paths]") {
  // /dev/stdout is /proc/self/fd/1: when it reaches a regular file, the file the descriptor
  // holds is written, not a new file renamed over its name.
  fs::path dir = fresh_directory("proc_fd");
  fs::path file = dir / "captured.txt";
  std::ofstream(file) << "old content, longer than the new\n";
  int fd = ::open(file.c_str(), O_RDWR);
  REQUIRE(fd >= 0);
  struct stat before {};
  REQUIRE(::stat(file.c_str(), &before) == 0);
  fs::create_symlink(fmt::format("/proc/self/fd/{}", fd), dir / "stdout");
  REQUIRE(write_output_file((dir / "stdout").string(), "new\n").ok());
  ::close(fd);
  struct stat after {};
  REQUIRE(::stat(file.c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);
  CHECK(*read_file(file.string()) == "new\n");
  CHECK(is_link(dir / "stdout"));
  fs::remove_all(dir);
}

TEST_CASE("a socket is refused", "[file_io][output_paths]") {
  fs::path dir = fresh_directory("socket");
  fs::path path = dir / "sock";
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", path.c_str());
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  Status status = write_output_file(path.string(), "x");
  ::close(fd);
  REQUIRE_FALSE(status.ok());
  CHECK(status.error() ==
        fmt::format("cannot write `{}`: it is neither a regular file, a character device nor a "
                    "FIFO",
                    path.string()));
  CHECK(fs::is_socket(fs::symlink_status(path)));
  CHECK(file_count(dir) == 1);
  fs::remove_all(dir);
}

TEST_CASE("same_file sees one file under several names", "[file_io][output_paths]") {
  fs::path dir = fresh_directory("same");
  std::ofstream(dir / "k.py") << "x";
  std::ofstream(dir / "other.py") << "x";
  fs::create_hard_link(dir / "k.py", dir / "hard.py");
  fs::create_symlink("k.py", dir / "soft.py");
  fs::create_directories(dir / "sub");
  const std::string k = (dir / "k.py").string();
  CHECK(same_file(k, k));
  CHECK(same_file(k, (dir / "sub" / ".." / "k.py").string()));
  CHECK(same_file(k, (dir / "hard.py").string()));
  CHECK(same_file(k, (dir / "soft.py").string()));
  CHECK_FALSE(same_file(k, (dir / "other.py").string()));
  CHECK_FALSE(same_file(k, (dir / "new.py").string()));
  CHECK_FALSE(same_file(k, "-"));
  CHECK_FALSE(same_file("-", "-"));
  // Neither exists: the paths decide.
  CHECK(same_file((dir / "sub" / ".." / "none.py").string(), (dir / "none.py").string()));
  fs::remove_all(dir);
}
