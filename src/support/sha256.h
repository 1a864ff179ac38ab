// SHA-256 (FIPS 180-4), for the source hash in generated module headers and tuning configs
// (`source_sha256:`), so a config tuned for another version of a kernel can be recognised.
// Compact and dependency-free: helionc links no crypto library.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace helionc {

class Sha256 {
 public:
  using Digest = std::array<uint8_t, 32>;

  Sha256();
  void update(std::string_view data);
  // The digest of everything passed to update(); the object must not be updated afterwards.
  Digest finish();

  // Lowercase hex, 64 characters.
  static std::string hex(const Digest& digest);

 private:
  void compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

// The lowercase hex SHA-256 of `data`.
std::string sha256_hex(std::string_view data);

}  // namespace helionc
