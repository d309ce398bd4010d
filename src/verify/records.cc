#include "verify/records.h"

#include <cstring>
#include <set>

#include "core/strings.h"

namespace regrapht::verify {

const ArrayRecord* DriverRecords::Find(int case_id, int call, const std::string& name) const {
  for (const auto& a : arrays) {
    if (a.case_id == case_id && a.call == call && a.name == name) return &a;
  }
  return nullptr;
}

std::vector<int> DriverRecords::CallsOf(int case_id) const {
  std::set<int> calls;
  for (const auto& a : arrays) {
    if (a.case_id == case_id) calls.insert(a.call);
  }
  return {calls.begin(), calls.end()};
}

Result<DriverRecords> ParseRecords(const std::string& data) {
  DriverRecords r;
  size_t pos = 0;
  while (pos < data.size()) {
    size_t nl = data.find('\n', pos);
    if (nl == std::string::npos) {
      return Status::InvalidArgument("records: unterminated line at byte " + std::to_string(pos));
    }
    std::string line = data.substr(pos, nl - pos);
    pos = nl + 1;
    if (StartsWith(line, "E ")) {
      std::string ev = line.substr(2);
      r.events.push_back(ev);
      if (ev == "begin") r.began = true;
      else if (ev == "end") r.finished = true;
      else if (StartsWith(ev, "nogpu ")) r.nogpu = ev.substr(6);
      else if (StartsWith(ev, "gpu ")) r.gpu = ev.substr(4);
      else if (StartsWith(ev, "cuda_error ")) r.cuda_error = ev.substr(11);
      else if (StartsWith(ev, "mutated ")) r.mutated.push_back(ev.substr(8));
      else if (StartsWith(ev, "call ")) r.last_call = ev.substr(5);
      else if (StartsWith(ev, "timing_wall_ms ")) r.timing_wall_ms = ParseDouble(ev.substr(15)).value_or(0);
    } else if (StartsWith(line, "A ")) {
      auto f = Split(line, ' ');
      if (f.size() != 6) return Status::InvalidArgument("records: bad array header: " + line);
      ArrayRecord a;
      auto c = ParseInt(f[1]), call = ParseInt(f[2]), es = ParseInt(f[4]), n = ParseInt(f[5]);
      if (!c || !call || !es || !n || *es <= 0 || *n < 0) {
        return Status::InvalidArgument("records: bad array header: " + line);
      }
      a.case_id = static_cast<int>(*c);
      a.call = static_cast<int>(*call);
      a.name = f[3];
      a.elem_size = static_cast<size_t>(*es);
      a.count = static_cast<size_t>(*n);
      size_t bytes = a.elem_size * a.count;
      if (pos + bytes > data.size()) {
        return Status::InvalidArgument("records: array '" + a.name + "' truncated");
      }
      a.bytes = data.substr(pos, bytes);
      pos += bytes;
      r.arrays.push_back(std::move(a));
    } else if (StartsWith(line, "T ")) {
      auto n = ParseInt(line.substr(2));
      if (!n || *n < 0) return Status::InvalidArgument("records: bad times header: " + line);
      size_t bytes = static_cast<size_t>(*n) * sizeof(double);
      if (pos + bytes > data.size()) return Status::InvalidArgument("records: times truncated");
      r.times_ms.resize(static_cast<size_t>(*n));
      std::memcpy(r.times_ms.data(), data.data() + pos, bytes);
      pos += bytes;
    } else {
      return Status::InvalidArgument("records: unexpected line at byte " + std::to_string(pos) + ": " +
                                     TruncateMiddle(line, 80));
    }
  }
  return r;
}

}  // namespace regrapht::verify
