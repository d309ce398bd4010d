// The record parser: sealing, bounds, and a seeded mutation fuzzer (no input
// may crash it, throw, or allocate past its size).
#include "verify/judge/records.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "core/hash.h"
#include "core/rng.h"
// This test is the driver runtime's only user in the binary: it takes the
// runtime's definitions too (the harness compiles them separately).
#define RG_DRIVER_IMPLEMENTATION
#include "verify/sandboxed/driver/rg_driver.h"

namespace regrapht::verify {
namespace {

const std::string kKey(32, 'k');

std::string Array(int c, int call, const std::string& name, const std::vector<float>& v) {
  std::string s = "A " + std::to_string(c) + " " + std::to_string(call) + " " + name + " 4 " +
                  std::to_string(v.size()) + "\n";
  s.append(reinterpret_cast<const char*>(v.data()), v.size() * 4);
  return s;
}

std::string Sealed(const std::string& body, const std::string& key = kKey) {
  return body + "E end " + RecordSeal(key, body) + "\n";
}

std::string Body() {
  std::vector<double> t = {0.5, 0.25};
  std::string times = "T 2\n";
  times.append(reinterpret_cast<const char*>(t.data()), 16);
  return "E begin\nE call 0 0\n" + Array(0, 0, "y", {1, 2, 3}) + Array(0, 1, "y", {1, 2, 3}) +
         "E t0 0\nE t1 0 0.500000\nE t0 1\nE t1 1 0.250000\n" + times;
}

// The driver's own SHA-256 (it links no OpenSSL) on the FIPS 180-4 vectors.
std::string DriverSha256Hex(std::string_view data) {
  rg::Sha256 h;
  h.Update(data.data(), data.size());
  unsigned char d[32];
  h.Final(d);
  return ToHex(std::string_view(reinterpret_cast<const char*>(d), sizeof d));
}

std::string DriverSeal(std::string_view key, std::string_view stream) {
  rg::Sha256 h;
  h.Update(stream.data(), stream.size());
  unsigned char d[32];
  h.Final(d);
  return rg::SealHex(reinterpret_cast<const unsigned char*>(key.data()), key.size(), d);
}

TEST(RecordsTest, DriverSha256MatchesKnownVectors) {
  EXPECT_EQ(DriverSha256Hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(DriverSha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(DriverSha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(DriverSha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// The host checks seals with OpenSSL (core/hash.h), the driver makes them
// with its own code: both must agree on every length around the 64-byte
// block and padding boundaries, and on a large stream.
TEST(RecordsTest, HostSealEqualsDriverSeal) {
  Rng rng(7);
  auto bytes = [&](size_t n) {
    std::string s(n, '\0');
    for (auto& c : s) c = static_cast<char>(rng.Below(256));
    return s;
  };
  for (size_t n = 0; n <= 200; ++n) {
    std::string key = bytes(32), stream = bytes(n);
    ASSERT_EQ(RecordSeal(key, stream), DriverSeal(key, stream)) << n;
  }
  std::string key = bytes(32), big = bytes((size_t{3} << 20) + 17);
  EXPECT_EQ(RecordSeal(key, big), DriverSeal(key, big));
  EXPECT_EQ(RecordSeal("", ""), DriverSeal("", ""));
}

TEST(RecordsTest, SealedStreamParses) {
  auto r = ParseRecords(Sealed(Body()), kKey);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->finished);
  ASSERT_NE(r->Find(0, 1, "y"), nullptr);
  EXPECT_EQ(r->Find(0, 1, "y")->count, 3u);
  ASSERT_EQ(r->reps.size(), 2u);
  EXPECT_DOUBLE_EQ(r->reps[1].reported_ms, 0.25);
  EXPECT_EQ(r->times_ms.size(), 2u);
}

// The reference-output cache's format: what a driver wrote, read back
// unsealed, re-serialised, reads back equal and finished (the end line last).
TEST(RecordsTest, SerializedRecordsReadBackFinishedAndEqual) {
  auto r = ParseRecords(Sealed(Body() + "E mutated 0 1 y\nE untouched 0 0 y\n"), kKey);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::string bytes = SerializeRecords(*r);
  EXPECT_TRUE(bytes.ends_with("E end\n"));
  auto back = ParseRecords(bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(back->finished);
  EXPECT_EQ(back->events, r->events);
  EXPECT_EQ(back->times_ms, r->times_ms);
  EXPECT_EQ(back->mutated, r->mutated);
  EXPECT_EQ(back->last_call, r->last_call);
  ASSERT_EQ(back->arrays.size(), r->arrays.size());
  for (size_t i = 0; i < r->arrays.size(); ++i) {
    const ArrayRecord& a = r->arrays[i];
    const ArrayRecord* b = back->Find(a.case_id, a.call, a.name);
    ASSERT_NE(b, nullptr) << a.name;
    EXPECT_EQ(b->bytes, a.bytes);
    EXPECT_EQ(b->elem_size, a.elem_size);
  }
  EXPECT_EQ(SerializeRecords(*back), bytes);
}

TEST(RecordsTest, WrongKeyOrForgedSealIsRejected) {
  EXPECT_FALSE(ParseRecords(Sealed(Body(), std::string(32, 'x')), kKey).ok());
  auto forged = ParseRecords(Body() + "E end " + std::string(64, '0') + "\n", kKey);
  ASSERT_FALSE(forged.ok());
  EXPECT_NE(forged.status().message().find("seal"), std::string::npos);
}

TEST(RecordsTest, InjectedBytesBreakTheSeal) {
  // The driver sealed its own bytes; something else wrote in between: an
  // extra output array, or other values in one the driver wrote. Each
  // stream is well formed (sealed by itself it parses), so only the seal
  // can refuse it under the driver's seal.
  const std::string body = Body();
  const std::string seal = RecordSeal(kKey, body);
  ASSERT_TRUE(ParseRecords(body + "E end " + seal + "\n", kKey).ok());
  std::string inserted = body;
  inserted.insert(inserted.find("E t0 0"), Array(0, 0, "z", {7, 8}));
  std::string changed = body;
  const std::vector<float> forged = {9, 9, 9};
  changed.replace(changed.find("A 0 0 y 4 3\n") + 12, 12, reinterpret_cast<const char*>(forged.data()), 12);
  ASSERT_EQ(changed.size(), body.size());
  for (const std::string& forged_body : {inserted, changed}) {
    ASSERT_TRUE(ParseRecords(Sealed(forged_body), kKey).ok()) << "the forged stream must be well formed";
    auto r = ParseRecords(forged_body + "E end " + seal + "\n", kKey);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("seal does not match"), std::string::npos) << r.status().message();
  }
}

TEST(RecordsTest, AnythingAfterTheEndLineIsRejected) {
  auto r = ParseRecords(Sealed(Body()) + "E nogpu 35 cudaErrorInsufficientDriver\n", kKey);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("after the end"), std::string::npos);
}

TEST(RecordsTest, NoGpuAfterBeginIsRejected) {
  EXPECT_FALSE(ParseRecords(Sealed("E begin\nE nogpu 35 x\n"), kKey).ok());
  auto ok = ParseRecords(Sealed("E nogpu 35 cudaErrorInsufficientDriver\n"), kKey);
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(ok->nogpu.has_value());
}

TEST(RecordsTest, UnsealedStreamIsUnfinishedNotAnError) {
  auto r = ParseRecords(Body(), kKey);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->finished);
}

TEST(RecordsTest, DuplicateRecordsAreRejected) {
  EXPECT_FALSE(ParseRecords(Sealed(Array(0, 0, "y", {1}) + Array(0, 0, "y", {2})), kKey).ok());
}

// Parts of one split run read as one run: arrays of both, a one-off event
// from the first part with it, inputs modified in call order, finished only
// when every part is; timing is never merged.
TEST(RecordsTest, MergedPartsReadAsOneRun) {
  auto a = ParseRecords(Sealed("E begin\nE call 0 0\n" + Array(0, 0, "y", {1}) + "E mutated 3 0 x\n"), kKey);
  auto b = ParseRecords(Sealed("E begin\nE call 0 1\n" + Array(0, 1, "y", {2}) +
                               "E mutated 1 1 x\nE late_output 1 1\n"),
                        kKey);
  ASSERT_TRUE(a.ok() && b.ok());
  auto m = MergeRecords({*a, *b});
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_TRUE(m->began && m->finished);
  ASSERT_NE(m->Find(0, 1, "y"), nullptr);
  EXPECT_NE(m->Find(0, 0, "y"), nullptr);
  EXPECT_EQ(m->mutated, (std::vector<std::string>{"1 1 x", "3 0 x"}));
  EXPECT_EQ(m->late_output, std::optional<std::string>("1 1"));
  auto unfinished = ParseRecords("E begin\n" + Array(0, 1, "y", {2}), kKey);
  ASSERT_TRUE(unfinished.ok());
  auto u = MergeRecords({*a, *unfinished});
  ASSERT_TRUE(u.ok());
  EXPECT_FALSE(u->finished);
  auto timed = ParseRecords(Sealed(Body()), kKey);
  ASSERT_TRUE(timed.ok());
  EXPECT_FALSE(MergeRecords({*timed}).ok());
}

TEST(RecordsTest, HugeCountsDoNotWrapOrAllocate) {
  // 2^61 elements of 8 bytes wrap to 0 in 64 bits.
  for (const char* head : {"A 0 0 y 8 2305843009213693952\n", "A 0 0 y 4096 18446744073709551615\n",
                           "A 0 0 y 8 -1\n", "A 99999999999 0 y 4 1\n", "T 2305843009213693952\n",
                           "T -3\n", "A 0 0 y 0 1\n", "A 0 0 y 5000 1\n"}) {
    auto r = ParseRecords(std::string(head) + "abcd", kKey);
    EXPECT_FALSE(r.ok()) << head;
  }
}

TEST(RecordsTest, SeededMutationsNeverCrash) {
  const std::string base = Sealed(Body());
  Rng rng(20261201);
  const char* tokens[] = {"A ", "E ", "T ", "\n", " ", "-1", "18446744073709551615", "2305843009213693952",
                          "E end ", "E nogpu 35 x\n", "E t1 0 1e308\n", "0"};
  for (int i = 0; i < 20000; ++i) {
    std::string s = base;
    int edits = 1 + static_cast<int>(rng.Below(4));
    for (int e = 0; e < edits && !s.empty(); ++e) {
      size_t at = rng.Below(s.size());
      switch (rng.Below(4)) {
        case 0: s[at] = static_cast<char>(rng.Below(256)); break;
        case 1: s.resize(at); break;
        case 2: s.insert(at, tokens[rng.Below(sizeof tokens / sizeof *tokens)]); break;
        default: s.erase(at, 1 + rng.Below(16)); break;
      }
    }
    auto r = ParseRecords(s, i % 2 ? kKey : std::string());
    if (r.ok()) {
      size_t bytes = 0;
      for (const auto& a : r->arrays) bytes += a.bytes.size();
      EXPECT_LE(bytes + r->times_ms.size() * 8, s.size());
    }
  }
}

}  // namespace
}  // namespace regrapht::verify
