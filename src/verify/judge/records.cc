#include "verify/judge/records.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

#include "core/hash.h"
#include "core/strings.h"

namespace regrapht::verify {
namespace {

uint64_t IndexKey(int case_id, int call) {
  return (uint64_t{static_cast<uint32_t>(case_id)} << 32) | static_cast<uint32_t>(call);
}

std::optional<int> ToInt(std::string_view s) {
  auto v = ParseInt(std::string(s));
  if (!v || *v < std::numeric_limits<int>::min() || *v > std::numeric_limits<int>::max()) return std::nullopt;
  return static_cast<int>(*v);
}

constexpr size_t kMaxElemSize = 4096;
constexpr size_t kMaxName = 255;

class RecordParser {
 public:
  RecordParser(std::string_view data, std::string_view key) : data_(data), key_(key) {}

  Result<DriverRecords> Run() {
    while (pos_ < data_.size()) {
      size_t nl = data_.find('\n', pos_);
      if (nl == std::string_view::npos) {
        return Status::InvalidArgument("records: unterminated line at byte " + std::to_string(pos_));
      }
      size_t start = pos_;
      std::string_view line = data_.substr(pos_, nl - pos_);
      pos_ = nl + 1;
      if (r_.finished) {
        return Status::InvalidArgument("records: data after the end line at byte " + std::to_string(start));
      }
      Status st = line.starts_with("E ")   ? Event(line.substr(2), start)
                  : line.starts_with("A ") ? Array(line)
                  : line.starts_with("T ") ? Times(line)
                                           : Status::InvalidArgument("records: unexpected line at byte " +
                                                                     std::to_string(start) + ": " +
                                                                     TruncateMiddle(std::string(line), 80));
      if (!st.ok()) return st;
    }
    return std::move(r_);
  }

 private:
  Status Event(std::string_view ev, size_t line_start) {
    if (ev == "end" || ev.starts_with("end ")) {
      if (!key_.empty()) {
        std::string want = RecordSeal(key_, data_.substr(0, line_start));
        if (ev.size() < 4 || ev.substr(4) != want) {
          return Status::InvalidArgument("records: the end line's seal does not match (bytes not written by "
                                         "the driver, at byte " + std::to_string(line_start) + ")");
        }
      }
      r_.events.emplace_back("end");
      r_.finished = true;
      return Status::Ok();
    }
    std::string e(ev);
    if (e == "begin") r_.began = true;
    else if (e.starts_with("nogpu ")) {
      if (r_.began || !r_.arrays.empty()) {
        return Status::InvalidArgument("records: 'nogpu' event after the run began (byte " +
                                       std::to_string(line_start) + ")");
      }
      r_.nogpu = e.substr(6);
    } else if (e.starts_with("gpu ")) r_.gpu = e.substr(4);
    else if (e.starts_with("cuda_error ")) r_.cuda_error = e.substr(11);
    else if (e.starts_with("mutated ")) r_.mutated.push_back(e.substr(8));
    else if (e.starts_with("host_compute ")) r_.host_compute = e.substr(13);
    else if (e.starts_with("not_emulated ")) r_.not_emulated = e.substr(13);
    else if (e.starts_with("late_output ")) r_.late_output = e.substr(12);
    else if (e.starts_with("call ")) r_.last_call = e.substr(5);
    else if (e.starts_with("timing_wall_ms ")) r_.timing_wall_ms = ParseDouble(e.substr(15)).value_or(0);
    else if (e.starts_with("t0 ") || e.starts_with("t1 ")) return Rep(e, pos_);
    else if (e.starts_with("k1 ")) return KernelRep(e);
    r_.events.push_back(std::move(e));
    return Status::Ok();
  }

  // "k1 <rep> <ms>": the kernel time of the repetition just closed.
  Status KernelRep(const std::string& e) {
    auto f = Split(e, ' ');
    auto rep = f.size() == 3 ? ToInt(f[1]) : std::nullopt;
    auto ms = f.size() == 3 ? ParseDouble(f[2]) : std::nullopt;
    if (!rep || !ms || *ms < 0 || r_.reps.empty() || r_.reps.back().rep != *rep || r_.reps.back().t1_end == 0 ||
        r_.kernel_ms.size() + 1 != r_.reps.size()) {
      return Status::InvalidArgument("records: bad kernel timing event: " + TruncateMiddle(e, 80));
    }
    r_.kernel_ms.push_back(*ms);
    return Status::Ok();
  }

  // "t0 <rep>" opens a repetition, "t1 <rep> <ms>" closes it.
  Status Rep(const std::string& e, size_t end) {
    auto f = Split(e, ' ');
    auto rep = f.size() >= 2 ? ToInt(f[1]) : std::nullopt;
    if (!rep) return Status::InvalidArgument("records: bad timing event: " + TruncateMiddle(e, 80));
    if (f[0] == "t0") {
      r_.reps.push_back({*rep, -1, end, 0});
      return Status::Ok();
    }
    auto ms = f.size() == 3 ? ParseDouble(f[2]) : std::nullopt;
    if (!ms || r_.reps.empty() || r_.reps.back().rep != *rep || r_.reps.back().t1_end != 0) {
      return Status::InvalidArgument("records: bad timing event: " + TruncateMiddle(e, 80));
    }
    r_.reps.back().reported_ms = *ms;
    r_.reps.back().t1_end = end;
    return Status::Ok();
  }

  Status Array(std::string_view line) {
    auto f = Split(std::string(line), ' ');
    auto bad = [&] { return Status::InvalidArgument("records: bad array header: " + TruncateMiddle(std::string(line), 80)); };
    if (f.size() != 6 || f[3].empty() || f[3].size() > kMaxName) return bad();
    auto c = ToInt(f[1]), call = ToInt(f[2]);
    auto es = ParseInt(f[4]), n = ParseInt(f[5]);
    if (!c || !call || !es || !n || *es <= 0 || static_cast<size_t>(*es) > kMaxElemSize || *n < 0) return bad();
    ArrayRecord a;
    a.case_id = *c;
    a.call = *call;
    a.name = f[3];
    a.elem_size = static_cast<size_t>(*es);
    size_t left = data_.size() - pos_;
    if (static_cast<uint64_t>(*n) > left / a.elem_size) {
      return Status::InvalidArgument("records: array '" + a.name + "' truncated");
    }
    a.count = static_cast<size_t>(*n);
    size_t bytes = a.elem_size * a.count;
    a.bytes.assign(data_.substr(pos_, bytes));
    pos_ += bytes;
    if (!r_.Add(std::move(a))) return Status::InvalidArgument("records: duplicate record: " + TruncateMiddle(std::string(line), 80));
    return Status::Ok();
  }

  Status Times(std::string_view line) {
    auto n = ParseInt(std::string(line.substr(2)));
    if (!n || *n < 0) return Status::InvalidArgument("records: bad times header: " + TruncateMiddle(std::string(line), 80));
    if (static_cast<uint64_t>(*n) > (data_.size() - pos_) / sizeof(double)) {
      return Status::InvalidArgument("records: times truncated");
    }
    if (!r_.times_ms.empty()) return Status::InvalidArgument("records: a second times record");
    size_t bytes = static_cast<size_t>(*n) * sizeof(double);
    r_.times_ms.resize(static_cast<size_t>(*n));
    if (bytes) std::memcpy(r_.times_ms.data(), data_.data() + pos_, bytes);
    pos_ += bytes;
    return Status::Ok();
  }

  std::string_view data_;
  std::string_view key_;
  size_t pos_ = 0;
  DriverRecords r_;
};

}  // namespace

const ArrayRecord* DriverRecords::Find(int case_id, int call, const std::string& name) const {
  auto it = index_.find(IndexKey(case_id, call));
  for (size_t i = it == index_.end() ? kNone : it->second; i != kNone; i = chain_[i]) {
    if (arrays[i].name == name) return &arrays[i];
  }
  return nullptr;
}

bool DriverRecords::Add(ArrayRecord a) {
  if (Find(a.case_id, a.call, a.name)) return false;
  auto it = index_.try_emplace(IndexKey(a.case_id, a.call), kNone).first;
  chain_.push_back(it->second);
  it->second = arrays.size();
  arrays.push_back(std::move(a));
  return true;
}

std::vector<int> DriverRecords::CallsOf(int case_id) const {
  std::set<int> calls;
  for (const auto& a : arrays) {
    if (a.case_id == case_id) calls.insert(a.call);
  }
  return {calls.begin(), calls.end()};
}

std::optional<std::pair<int, int>> CaseCallOf(std::string_view text) {
  auto f = Split(text, ' ');
  auto c = f.size() >= 2 ? ToInt(f[0]) : std::nullopt;
  auto call = f.size() >= 2 ? ToInt(f[1]) : std::nullopt;
  if (!c || !call) return std::nullopt;
  return std::pair(*c, *call);
}

Result<DriverRecords> MergeRecords(std::vector<DriverRecords> parts) {
  DriverRecords all;
  all.began = all.finished = !parts.empty();
  auto first = [](std::optional<std::string>& to, std::optional<std::string>& from) {
    if (!to && from) to = std::move(from);
  };
  for (size_t i = 0; i < parts.size(); ++i) {
    DriverRecords& r = parts[i];
    if (!r.times_ms.empty() || !r.reps.empty() || !r.kernel_ms.empty()) {
      return Status::InvalidArgument("records of part " + std::to_string(i) +
                                     " hold timing: a timed run is never split");
    }
    for (auto& a : r.arrays) {
      const std::string what = "case " + std::to_string(a.case_id) + " call " + std::to_string(a.call) + " '" +
                               a.name + "'";
      if (!all.Add(std::move(a))) {
        return Status::InvalidArgument("records of part " + std::to_string(i) + " repeat " + what);
      }
    }
    for (auto& e : r.events) all.events.push_back(std::move(e));
    for (auto& m : r.mutated) all.mutated.push_back(std::move(m));
    all.began = all.began && r.began;
    all.finished = all.finished && r.finished;
    first(all.nogpu, r.nogpu);
    first(all.gpu, r.gpu);
    first(all.cuda_error, r.cuda_error);
    first(all.host_compute, r.host_compute);
    first(all.late_output, r.late_output);
    first(all.not_emulated, r.not_emulated);
    if (r.last_call) all.last_call = std::move(r.last_call);
    all.timing_wall_ms = std::max(all.timing_wall_ms, r.timing_wall_ms);
  }
  // "case call name" in the order one process makes the calls.
  auto at = [](const std::string& m) { return CaseCallOf(m).value_or(std::pair(-1, -1)); };
  std::stable_sort(all.mutated.begin(), all.mutated.end(),
                   [&](const std::string& a, const std::string& b) { return at(a) < at(b); });
  return all;
}

std::string RecordSeal(std::string_view key, std::string_view stream) {
  // What the driver's rg::SealHex computes with its own SHA-256 (driver
  // programs link no OpenSSL); records_test checks the two agree.
  std::string stream_digest = Sha256().Update(stream).Digest();
  return Sha256().Update(key).Update(stream_digest).HexDigest();
}

std::string SerializeRecords(const DriverRecords& r) {
  size_t size = r.times_ms.size() * sizeof(double) + 64;
  for (const auto& e : r.events) size += e.size() + 3;
  for (const auto& a : r.arrays) size += a.bytes.size() + a.name.size() + 64;
  std::string out;
  out.reserve(size);
  for (const auto& e : r.events) {
    if (e != "end") out += "E " + e + "\n";
  }
  for (const auto& a : r.arrays) {
    out += "A " + std::to_string(a.case_id) + " " + std::to_string(a.call) + " " + a.name + " " +
           std::to_string(a.elem_size) + " " + std::to_string(a.count) + "\n";
    out += a.bytes;
  }
  out += "T " + std::to_string(r.times_ms.size()) + "\n";
  out.append(reinterpret_cast<const char*>(r.times_ms.data()), r.times_ms.size() * sizeof(double));
  out += "E end\n";
  return out;
}

Result<DriverRecords> ParseRecords(std::string_view data, std::string_view key) {
  return RecordParser(data, key).Run();
}

}  // namespace regrapht::verify
