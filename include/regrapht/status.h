// Status and Result<T>: how every regrapht module reports failure.
//
// A Status is OK or carries a code and a message naming what failed (the file,
// line or field where it can). Result<T> holds either a T or a non-OK Status.
// Neither throws. Failure of a *candidate* (it does not compile, is wrong) is
// never a Status: it is data in the module's result struct. A Status reports a
// failure of the tool or its environment (nvcc missing, file unreadable, bad
// spec, endpoint down).
//
// Thread safety: values; safe to copy between threads.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace regrapht {

class [[nodiscard]] Status {
 public:
  enum class Code {
    kOk = 0,
    kInvalidArgument,    // bad input: spec, flag, file contents
    kNotFound,           // a file, model, problem or record does not exist
    kIoError,            // read/write/exec failed
    kFailedPrecondition, // the environment lacks something (nvcc, GPU, model)
    kUnavailable,        // a server did not answer or refused (retryable)
    kDeadlineExceeded,   // a time limit passed
    kCancelled,          // the caller asked to stop
    kInternal,           // a bug or an unexpected state
    kUnimplemented,      // the backend does not offer this
    kPermissionDenied,   // authentication/authorisation failed
  };

  Status() = default;
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string m) { return {Code::kInvalidArgument, std::move(m)}; }
  static Status NotFound(std::string m) { return {Code::kNotFound, std::move(m)}; }
  static Status IoError(std::string m) { return {Code::kIoError, std::move(m)}; }
  static Status FailedPrecondition(std::string m) {
    return {Code::kFailedPrecondition, std::move(m)};
  }
  static Status Unavailable(std::string m) { return {Code::kUnavailable, std::move(m)}; }
  static Status DeadlineExceeded(std::string m) { return {Code::kDeadlineExceeded, std::move(m)}; }
  static Status Cancelled(std::string m) { return {Code::kCancelled, std::move(m)}; }
  static Status Internal(std::string m) { return {Code::kInternal, std::move(m)}; }
  static Status Unimplemented(std::string m) { return {Code::kUnimplemented, std::move(m)}; }
  static Status PermissionDenied(std::string m) { return {Code::kPermissionDenied, std::move(m)}; }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

  // Returns a copy whose message is "<prefix>: <message>".
  Status WithContext(std::string_view prefix) const;

  // "OK" or "<code name>: <message>".
  std::string ToString() const;

  bool operator==(const Status& other) const = default;

 private:
  Code code_ = Code::kOk;
  std::string message_;
};

std::string_view CodeName(Status::Code code);

// Result<T> holds a T or a non-OK Status (StatusOr style).
// REQUIRES: constructed from a non-OK Status when it holds no value.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    assert(!status_.ok() && "Result constructed from an OK status without a value");
    if (status_.ok()) status_ = Status::Internal("Result built from OK status without a value");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  T& value() & {
    assert(ok());
    return *value_;
  }
  const T& value() const& {
    assert(ok());
    return *value_;
  }
  T&& value() && {
    assert(ok());
    return std::move(*value_);
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*value_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  T value_or(T fallback) const& { return ok() ? *value_ : std::move(fallback); }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace regrapht

#define RG_CONCAT_INNER_(a, b) a##b
#define RG_CONCAT_(a, b) RG_CONCAT_INNER_(a, b)

// Returns the Status from the enclosing function if `expr` is not OK.
#define RG_RETURN_IF_ERROR(expr)                      \
  do {                                                \
    ::regrapht::Status rg_status_ = (expr);           \
    if (!rg_status_.ok()) return rg_status_;          \
  } while (0)

// `lhs` = value of the Result `rexpr`, or returns its Status.
#define RG_ASSIGN_OR_RETURN(lhs, rexpr) \
  RG_ASSIGN_OR_RETURN_IMPL_(RG_CONCAT_(rg_result_, __LINE__), lhs, rexpr)
#define RG_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                              \
  if (!tmp.ok()) return tmp.status();              \
  lhs = std::move(tmp).value()
