#include <catch2/catch.hpp>

#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

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

TEST_CASE("write_file_atomically replaces the file and leaves no temporary", "[file_io]") {
  fs::path dir = fresh_directory("write");
  fs::path target = dir / "out_pallas.py";
  REQUIRE(write_file_atomically(target.string(), "first\n").ok());
  CHECK(*read_file(target.string()) == "first\n");
  // New files get 0666 & ~umask, like any other file the user creates.
  mode_t mask = ::umask(0);
  ::umask(mask);
  struct stat info {};
  REQUIRE(::stat(target.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == (0666 & ~mask));
  // An existing file keeps its permissions.
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  REQUIRE(write_file_atomically(target.string(), "second\n").ok());
  CHECK(*read_file(target.string()) == "second\n");
  REQUIRE(::stat(target.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0640);
  CHECK(file_count(dir) == 1);
  fs::remove_all(dir);
}

TEST_CASE("a failed write leaves the target untouched and no temporary", "[file_io]") {
  fs::path dir = fresh_directory("fail");
  // The target is a non-empty directory: rename() fails after the data was written.
  fs::create_directories(dir / "taken" / "inside");
  Status status = write_file_atomically((dir / "taken").string(), "data");
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().starts_with(fmt::format("cannot replace `{}`: ", (dir / "taken").string())));
  CHECK(file_count(dir) == 1);
  CHECK(fs::is_directory(dir / "taken" / "inside"));
  // A directory that does not exist.
  Status nowhere = write_file_atomically((dir / "no" / "out.py").string(), "data");
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
    REQUIRE(write_file_atomically("-", "to stdout\n").ok());
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
  Status status = write_file_atomically("out.py", "x = 1\n");
  fs::current_path(saved);
  REQUIRE(status.ok());
  CHECK(*read_file((dir / "out.py").string()) == "x = 1\n");
  CHECK(file_count(dir) == 1);
  fs::remove_all(dir);
}
