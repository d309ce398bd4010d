#include "core/numbers.h"

#include <gtest/gtest.h>

#include <limits>

namespace regrapht {
namespace {

std::string Why(const Status& s) { return s.message(); }

TEST(NumbersTest, WholeNumbersInRange) {
  EXPECT_EQ(*ParseWholeIn("42", 1, 100), 42);
  EXPECT_EQ(*ParseWholeIn(" +7 ", 1, 100), 7);
  EXPECT_EQ(*ParseWholeIn("-3", -5, 5), -3);
  EXPECT_EQ(*ParseWholeIn("9223372036854775807", 0, std::numeric_limits<int64_t>::max()),
            std::numeric_limits<int64_t>::max());
}

TEST(NumbersTest, WholeNumbersRefused) {
  EXPECT_EQ(Why(ParseWholeIn("-1", 1, 100000).status()), "-1 is below the minimum 1 (allowed: 1 to 100000)");
  EXPECT_EQ(Why(ParseWholeIn("100000", 1, 1024).status()),
            "100000 is above the maximum 1024 (allowed: 1 to 1024)");
  // Overflow of int64 is out of range, not a wrapped value.
  EXPECT_NE(Why(ParseWholeIn("99999999999999999999", 0, 10).status()).find("above the maximum 10"),
            std::string::npos);
  EXPECT_NE(Why(ParseWholeIn("-99999999999999999999", 0, 10).status()).find("below the minimum 0"),
            std::string::npos);
  EXPECT_NE(Why(ParseWholeIn("1e20", 0, 10).status()).find("not a whole number"), std::string::npos);
  EXPECT_NE(Why(ParseWholeIn("2.5", 0, 10).status()).find("not a whole number"), std::string::npos);
  EXPECT_NE(Why(ParseWholeIn("nan", 0, 10).status()).find("not a finite number"), std::string::npos);
  EXPECT_NE(Why(ParseWholeIn("-inf", 0, 10).status()).find("not a finite number"), std::string::npos);
  EXPECT_NE(Why(ParseWholeIn("0x10", 0, 100).status()).find("not a number"), std::string::npos);
  EXPECT_NE(Why(ParseWholeIn("", 0, 100).status()).find("empty"), std::string::npos);
  EXPECT_NE(Why(ParseWholeIn("1 2", 0, 100).status()).find("not a number"), std::string::npos);
  EXPECT_NE(Why(ParseWholeIn(std::string("4\0", 2), 0, 100).status()).find("\\x00"), std::string::npos);
}

TEST(NumbersTest, Unsigned) {
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(*ParseUnsignedIn("18446744073709551615", 0, max), max);
  EXPECT_EQ(*ParseUnsignedIn("-0", 0, max), 0u);
  EXPECT_NE(Why(ParseUnsignedIn("18446744073709551616", 0, max).status()).find("above the maximum"),
            std::string::npos);
  EXPECT_NE(Why(ParseUnsignedIn("-1", 0, max).status()).find("below the minimum 0"), std::string::npos);
}

TEST(NumbersTest, Reals) {
  EXPECT_DOUBLE_EQ(*ParseRealIn("0.7", 0, 10), 0.7);
  EXPECT_DOUBLE_EQ(*ParseRealIn("1e-3", 0, 10), 1e-3);
  EXPECT_DOUBLE_EQ(*ParseRealIn("600", 0, 600), 600);
  EXPECT_NE(Why(ParseRealIn("nan", 0, 600).status()).find("not a finite number"), std::string::npos);
  EXPECT_NE(Why(ParseRealIn("NaN", 0, 600).status()).find("not a finite number"), std::string::npos);
  EXPECT_NE(Why(ParseRealIn("inf", 0, 600).status()).find("not a finite number"), std::string::npos);
  EXPECT_NE(Why(ParseRealIn("1e999", 0, 600).status()).find("overflows"), std::string::npos);
  EXPECT_NE(Why(ParseRealIn("0x1p3", 0, 600).status()).find("not a number"), std::string::npos);
  EXPECT_NE(Why(ParseRealIn("-1", 0, 600).status()).find("below the minimum 0"), std::string::npos);
  EXPECT_NE(Why(ParseRealIn("601", 0, 600).status()).find("above the maximum 600"), std::string::npos);
  EXPECT_NE(Why(ParseRealIn("0", 0, 600, true).status()).find("not above 0"), std::string::npos);
  EXPECT_NE(Why(ParseRealIn("e", 0, 600).status()).find("not a number"), std::string::npos);
  EXPECT_NE(Why(ParseRealIn("1e5x", 0, 600).status()).find("not a number"), std::string::npos);
  EXPECT_EQ(RangeText(0, 600, true), "above 0 and at most 600");
  EXPECT_EQ(RangeTag(0.5, 2), "[0.5,2]");
}

}  // namespace
}  // namespace regrapht
