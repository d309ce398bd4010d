#include "regrapht/status.h"

namespace regrapht {

std::string_view CodeName(Status::Code code) {
  switch (code) {
    case Status::Code::kOk: return "OK";
    case Status::Code::kInvalidArgument: return "invalid argument";
    case Status::Code::kNotFound: return "not found";
    case Status::Code::kIoError: return "I/O error";
    case Status::Code::kFailedPrecondition: return "failed precondition";
    case Status::Code::kUnavailable: return "unavailable";
    case Status::Code::kDeadlineExceeded: return "deadline exceeded";
    case Status::Code::kCancelled: return "cancelled";
    case Status::Code::kInternal: return "internal error";
    case Status::Code::kUnimplemented: return "unimplemented";
    case Status::Code::kPermissionDenied: return "permission denied";
  }
  return "unknown";
}

Status Status::WithContext(std::string_view prefix) const {
  if (ok()) return *this;
  return Status(code_, std::string(prefix) + ": " + message_);
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(CodeName(code_)) + ": " + message_;
}

}  // namespace regrapht
