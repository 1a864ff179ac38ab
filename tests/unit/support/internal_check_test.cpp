#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "support/expected.h"
#include "support/internal_check.h"

using namespace helionc;

namespace {
// Runs `body` in a child process; returns its exit status and what it wrote to stderr.
template <typename Body>
std::pair<int, std::string> run_in_child(Body body) {
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(pipe_fds[1], STDERR_FILENO);
    ::close(pipe_fds[0]);
    body();
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  std::string output;
  char buffer[256];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) output.append(buffer, n);
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}
}  // namespace

TEST_CASE("HELIONC_CHECK exits with status 3 and names the place", "[internal_check]") {
  auto [status, output] = run_in_child([] {
    int rank = 5;
    HELIONC_CHECK(rank <= 4, "rank out of range");
  });
  CHECK(status == kInternalErrorExitStatus);
  CHECK(output.starts_with(
      "helionc: internal error: rank out of range [check `rank <= 4` failed] ("));
  CHECK(output.find("internal_check_test.cpp:") != std::string::npos);
  CHECK(output.ends_with(")\n"));
}

TEST_CASE("HELIONC_UNREACHABLE exits with status 3", "[internal_check]") {
  auto [status, output] = run_in_child([] { HELIONC_UNREACHABLE(std::string("bad kind ") + "x"); });
  CHECK(status == 3);
  CHECK(output.starts_with("helionc: internal error: bad kind x ("));
}

TEST_CASE("passing checks do nothing; Expected misuse is an internal error", "[internal_check]") {
  HELIONC_CHECK(1 + 1 == 2, "arithmetic");
  Expected<int> value = 4;
  CHECK(value.ok());
  CHECK(*value == 4);
  Expected<int> failure = Error{"nope"};
  CHECK_FALSE(failure);
  CHECK(failure.error() == "nope");
  auto [status, output] = run_in_child([&] { (void)failure.value(); });
  CHECK(status == 3);
  CHECK(output.starts_with("helionc: internal error: Expected::value() on an error: nope"));
}
