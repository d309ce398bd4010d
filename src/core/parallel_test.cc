#include "core/parallel.h"
#include <gtest/gtest.h>
#include <atomic>
#include <chrono>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include "regrapht/status.h"

namespace regrapht {
namespace {

// Sleeps longer for early items, so that later items finish first.
void SleepReversed(size_t i, size_t n) { std::this_thread::sleep_for(std::chrono::milliseconds(2 * (n - i))); }

TEST(ParallelMap, ResultsComeBackInInputOrder) {
  const size_t n = 40;
  auto out = ParallelMap(n, 4, [&](size_t i) {
    SleepReversed(i, n);
    return std::to_string(i * i);
  });
  ASSERT_EQ(out.size(), n);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(out[i], std::to_string(i * i));
}

TEST(ParallelMap, UsesSeveralThreads) {
  std::mutex mu;
  std::set<std::thread::id> ids;
  std::atomic<int> running{0}, most{0};
  ParallelFor(16, 4, [&](size_t) {
    int now = ++running;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    --running;
    std::lock_guard<std::mutex> lock(mu);
    ids.insert(std::this_thread::get_id());
  });
  EXPECT_GT(ids.size(), 1u);
  EXPECT_LE(most.load(), 4);
  EXPECT_GT(most.load(), 1);
}

TEST(ParallelMap, OneWorkerRunsInOrderOnTheCallingThread) {
  std::vector<size_t> order;
  const auto caller = std::this_thread::get_id();
  auto out = ParallelMap(5, 1, [&](size_t i) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    order.push_back(i);
    return static_cast<int>(i) * 10;
  });
  EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(out, (std::vector<int>{0, 10, 20, 30, 40}));
  // Zero or negative workers mean one.
  EXPECT_EQ(ParallelMap(3, 0, [](size_t i) { return i; }).size(), 3u);
  EXPECT_EQ(ParallelMap(3, -2, [](size_t i) { return i; }).size(), 3u);
}

TEST(ParallelMap, NoItemsNoCalls) {
  int calls = 0;
  EXPECT_TRUE(ParallelMap(0, 4, [&](size_t) { return ++calls; }).empty());
  EXPECT_EQ(calls, 0);
}

TEST(ParallelMap, MoreWorkersThanItems) {
  auto out = ParallelMap(2, 16, [](size_t i) { return i + 1; });
  EXPECT_EQ(out, (std::vector<size_t>{1, 2}));
}

TEST(ParallelMap, CancellationLeavesAPrefixAndStartsNothingAfter) {
  for (int workers : {1, 3}) {
    std::atomic<bool> cancel{false};
    std::atomic<size_t> calls{0};
    auto out = ParallelMap(
        100, workers,
        [&](size_t i) {
          ++calls;
          if (i == 10) cancel = true;
          return i;
        },
        [&] { return cancel.load(); });
    // Item 10 ran and set the flag; at most the workers' items in progress
    // then finish, nothing starts after.
    ASSERT_GE(out.size(), 11u) << workers;
    EXPECT_LE(out.size(), 10u + static_cast<size_t>(workers)) << workers;
    EXPECT_EQ(calls.load(), out.size()) << workers;
    for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], i);
  }
}

TEST(ParallelMap, CancelledBeforeTheStartRunsNothing) {
  int calls = 0;
  auto out = ParallelMap(10, 4, [&](size_t) { return ++calls; }, [] { return true; });
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(calls, 0);
}

TEST(ParallelMap, StatusIsAValue) {
  auto out = ParallelMap(4, 2, [](size_t i) -> Result<int> {
    if (i == 2) return Status::InvalidArgument("item 2");
    return static_cast<int>(i);
  });
  ASSERT_EQ(out.size(), 4u);
  EXPECT_TRUE(out[1].ok());
  ASSERT_FALSE(out[2].ok());
  EXPECT_EQ(out[2].status().message(), "item 2");
  EXPECT_EQ(*out[3], 3);
}

TEST(ParallelMap, ExceptionIsRethrownOnTheCallingThread) {
  for (int workers : {1, 4}) {
    std::atomic<size_t> calls{0};
    try {
      ParallelMap(1000, workers, [&](size_t i) {
        ++calls;
        if (i == 7) throw std::runtime_error("item 7");
        if (i == 9) throw std::runtime_error("item 9");
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        return i;
      });
      ADD_FAILURE() << "no exception with " << workers << " workers";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "item 7") << workers;  // the lowest index that threw
    }
    EXPECT_LT(calls.load(), 1000u) << "items kept starting after the exception";
  }
}

TEST(ParallelFor, CountsTheItemsThatRan) {
  std::vector<std::atomic<int>> hits(50);
  EXPECT_EQ(ParallelFor(50, 3, [&](size_t i) { ++hits[i]; }), 50u);
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
}

TEST(OrderedParallelMap, StreamsInOrderWhileLaterItemsRun) {
  const size_t n = 12;
  std::atomic<bool> release{false};
  OrderedParallelMap<size_t> pool(n, 3, [&](size_t i) {
    // Items after the first wait until the caller has seen item 0: the
    // first result must come back before the whole map is done.
    while (i > 0 && !release) std::this_thread::yield();
    return i;
  });
  auto first = pool.Next();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*first, 0u);
  release = true;
  for (size_t i = 1; i < n; ++i) {
    auto r = pool.Next();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(*r, i);
  }
  EXPECT_FALSE(pool.Next().has_value());
}

TEST(OrderedParallelMap, BreakingOutStopsFurtherItems) {
  std::atomic<size_t> calls{0};
  {
    OrderedParallelMap<int> pool(1000, 2, [&](size_t) {
      ++calls;
      std::this_thread::sleep_for(std::chrono::microseconds(500));
      return 1;
    });
    for (int k = 0; k < 3; ++k) ASSERT_TRUE(pool.Next().has_value());
  }  // the destructor stops and joins
  size_t after = calls.load();
  EXPECT_LT(after, 1000u);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(calls.load(), after);
}

TEST(OrderedParallelMap, NextAfterAStopReturnsNothing) {
  std::atomic<bool> stop{false};
  OrderedParallelMap<int> pool(
      100, 2,
      [&](size_t i) {
        if (i == 4) stop = true;
        return static_cast<int>(i);
      },
      [&] { return stop.load(); });
  size_t seen = 0;
  while (auto r = pool.Next()) EXPECT_EQ(*r, static_cast<int>(seen++));
  EXPECT_GE(seen, 5u);
  EXPECT_LT(seen, 100u);
}

}  // namespace
}  // namespace regrapht
