// Expected<T>: a value or an error message, for operations whose failure is the user's
// business (a missing template, an unreadable file) rather than a compiler bug. C++20 has no
// std::expected, and exceptions would let one bad input escape as a crash, so fallible support
// functions return this instead. Failure carries a finished, human-readable message.
#pragma once

#include <string>
#include <utility>
#include <variant>

#include "support/internal_check.h"

namespace helionc {

// The error side, constructed explicitly so `return Error{"..."};` reads as a failure.
struct Error {
  std::string message;
};

template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}
  Expected(Error error) : state_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // Accessing the wrong side is a helionc bug, reported as an internal error.
  T& value() & {
    HELIONC_CHECK(ok(), "Expected::value() on an error: " + error());
    return std::get<0>(state_);
  }
  const T& value() const& {
    HELIONC_CHECK(ok(), "Expected::value() on an error: " + error());
    return std::get<0>(state_);
  }
  T&& value() && {
    HELIONC_CHECK(ok(), "Expected::value() on an error: " + error());
    return std::get<0>(std::move(state_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const std::string& error() const {
    HELIONC_CHECK(!ok(), "Expected::error() on a value");
    return std::get<1>(state_).message;
  }

 private:
  std::variant<T, Error> state_;
};

// Success or an error message, for operations with no result value (writing a file).
template <>
class [[nodiscard]] Expected<void> {
 public:
  Expected() = default;
  Expected(Error error) : error_(std::move(error.message)), failed_(true) {}

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const std::string& error() const {
    HELIONC_CHECK(failed_, "Expected::error() on a success");
    return error_;
  }

 private:
  std::string error_;
  bool failed_ = false;
};

using Status = Expected<void>;

}  // namespace helionc
