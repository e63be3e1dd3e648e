//===- CodecTest.cpp - The closed value codec -----------------------------===//
#include "ivc/runtime/codec/Codec.h"

#include <gtest/gtest.h>

using namespace ivc::runtime;
using namespace ivc::runtime::codec;

namespace {

std::span<const uint8_t> bytesOf(const std::string &s) {
  return {reinterpret_cast<const uint8_t *>(s.data()), s.size()};
}

Value roundTrip(const Value &v) {
  std::string bytes = encode(v);
  Result<Value> back = decode(bytesOf(bytes));
  EXPECT_TRUE(back.ok()) << (back.ok() ? "" : back.error().message);
  return back.ok() ? *back : Value();
}

std::string decodeError(const std::string &bytes, const Limits &limits = {}) {
  Result<Value> v = decode(bytesOf(bytes), limits);
  EXPECT_FALSE(v.ok()) << "decoded " << (v.ok() ? v->repr() : "");
  return v.ok() ? "" : v.error().message;
}

TensorDesc desc(DType d, std::vector<int64_t> shape) {
  TensorDesc t;
  t.dtype = d;
  t.shape = std::move(shape);
  uint64_t n = dtypeSize(d);
  for (int64_t s : t.shape)
    n *= static_cast<uint64_t>(s);
  t.nbytes = n;
  t.space = 3;
  t.offset = 128;
  return t;
}

TEST(Codec, ScalarsRoundTrip) {
  for (const Value &v :
       {Value::none(), Value::boolean(true), Value::boolean(false), Value::integer(0),
        Value::integer(-1), Value::integer(INT64_MIN), Value::integer(INT64_MAX),
        Value::real(0.5), Value::real(-0.0), Value::real(1e308), Value::str(""),
        Value::str("h\xc3\xa9llo \xf0\x9f\x99\x82"), Value::bytes(std::string("\0\xff", 2)),
        Value::dtype(DType::BFloat16), Value::device("cpu"), Value::device("cuda", 3)})
    EXPECT_EQ(roundTrip(v), v) << v.repr();
}

TEST(Codec, ContainersAndTensorsRoundTrip) {
  Value d = Value::dict();
  d.set("hidden", Value::tensor(desc(DType::Float32, {2, 5, 16})));
  d.set("ids", Value::list({Value::integer(1), Value::tuple({Value::str("a"), Value::none()})}));
  d.set("set", Value::set({Value::integer(1), Value::tuple({Value::integer(2)})}));
  d.set("empty", Value::tensor(desc(DType::Int64, {0, 7})));
  d.set("scalar", Value::tensor(desc(DType::Bool, {})));
  EXPECT_EQ(roundTrip(d), d);
  EXPECT_EQ(roundTrip(d).repr(), d.repr());
}

TEST(Codec, EncodingIsCanonical) {
  // Tag, zigzag varint: -1 -> 1, 64 -> 128 (two bytes).
  EXPECT_EQ(encode(Value::integer(-1)), std::string("\x03\x01", 2));
  EXPECT_EQ(encode(Value::integer(64)), std::string("\x03\x80\x01", 3));
  EXPECT_NE(decodeError(std::string("\x03\x80\x00", 3)).find("non-canonical"), std::string::npos);
}

TEST(Codec, RejectsTruncatedInput) {
  std::string full = encode(Value::list({Value::str("abcdef"), Value::real(1.5)}));
  for (size_t n = 0; n < full.size(); ++n)
    EXPECT_FALSE(decode(bytesOf(full.substr(0, n))).ok()) << "prefix of " << n << " bytes";
}

TEST(Codec, RejectsTrailingBytes) {
  EXPECT_NE(decodeError(encode(Value::none()) + "x").find("trailing"), std::string::npos);
}

TEST(Codec, RejectsUnknownTagsAndDtypes) {
  EXPECT_NE(decodeError("\x7f").find("unknown tag 0x7f"), std::string::npos);
  EXPECT_NE(decodeError(std::string("\x0b\x40", 2)).find("unknown dtype"), std::string::npos);
}

TEST(Codec, LengthsAreNotTrustedForAllocation) {
  // A list claiming 2^62 items in a 10-byte input fails before allocating.
  std::string bomb = "\x07\x80\x80\x80\x80\x80\x80\x80\x80\x40";
  EXPECT_NE(decodeError(bomb).find("exceeds the input"), std::string::npos);
  std::string str = "\x05\xff\xff\xff\xff\x0f" "abc";
  EXPECT_NE(decodeError(str).find("exceeds the input"), std::string::npos);
}

TEST(Codec, DepthIsLimited) {
  std::string deep(100, '\x07');
  for (int i = 0; i < 100; ++i)
    deep.insert(deep.begin() + 1 + 2 * i, '\x01');
  // 100 nested one-element lists around None.
  std::string nested;
  for (int i = 0; i < 100; ++i)
    nested += std::string("\x07\x01", 2);
  nested += '\x00';
  EXPECT_NE(decodeError(nested).find("nesting deeper"), std::string::npos);
  Limits generous;
  generous.maxDepth = 200;
  EXPECT_TRUE(decode(bytesOf(nested), generous).ok());
}

TEST(Codec, ItemCountIsLimited) {
  Value big = Value::list(std::vector<Value>(1000, Value::none()));
  Limits small;
  small.maxItems = 500;
  EXPECT_NE(decodeError(encode(big), small).find("more than 500 values"), std::string::npos);
}

TEST(Codec, RejectsInvalidUtf8) {
  for (std::string bad : {std::string("\xc0\x80", 2), std::string("\xed\xa0\x80", 3),
                          std::string("\xf4\x90\x80\x80", 4), std::string("\xe2\x82", 2),
                          std::string("\x80", 1)}) {
    std::string bytes = "\x05" + std::string(1, static_cast<char>(bad.size())) + bad;
    EXPECT_NE(decodeError(bytes).find("UTF-8"), std::string::npos);
  }
  // Bytes are not text: anything goes.
  EXPECT_TRUE(decode(bytesOf(std::string("\x06\x02\xc0\x80", 4))).ok());
}

TEST(Codec, UnhashableKeysAreRefused) {
  std::string listKey = encode(Value::dict({Value::list(), Value::none()}));
  EXPECT_NE(decodeError(listKey).find("not hashable"), std::string::npos);
  std::string tensorInSet = encode(Value::set({Value::tensor(desc(DType::UInt8, {1}))}));
  EXPECT_NE(decodeError(tensorInSet).find("not hashable"), std::string::npos);
  std::string tupleKey = encode(Value::dict({Value::tuple({Value::list()}), Value::none()}));
  EXPECT_NE(decodeError(tupleKey).find("not hashable"), std::string::npos);
}

TEST(Codec, TensorNbytesMustMatchShape) {
  TensorDesc t = desc(DType::Float32, {4, 4});
  t.nbytes = 63;
  EXPECT_NE(decodeError(encode(Value::tensor(t))).find("does not match"), std::string::npos);
  // Dimensions whose product overflows 64 bits.
  TensorDesc huge = desc(DType::Float64, {});
  huge.shape = {int64_t(1) << 40, int64_t(1) << 40};
  huge.nbytes = 0;
  EXPECT_NE(decodeError(encode(Value::tensor(huge))).find("overflows"), std::string::npos);
  // A zero dimension makes any other product irrelevant.
  TensorDesc empty = desc(DType::Float64, {});
  empty.shape = {int64_t(1) << 62, 0, int64_t(1) << 62};
  empty.nbytes = 0;
  EXPECT_TRUE(decode(bytesOf(encode(Value::tensor(empty)))).ok());
}

TEST(Codec, DeviceTypesAreRestricted) {
  std::string bad = "\x0c\x03" "c/u" "\x00";
  EXPECT_NE(decodeError(bad).find("outside [a-z0-9_]"), std::string::npos);
  std::string badIndex = "\x0c\x03" "cpu" "\x03"; // zigzag 3 = -2
  EXPECT_NE(decodeError(badIndex).find("device index"), std::string::npos);
}

TEST(Codec, DtypeNamesAndSizes) {
  EXPECT_EQ(dtypeName(DType::BFloat16), "bfloat16");
  EXPECT_EQ(dtypeSize(DType::Complex128), 16u);
  EXPECT_EQ(dtypeFromName("int8"), DType::Int8);
  EXPECT_FALSE(dtypeFromName("quint8").has_value());
}

} // namespace
