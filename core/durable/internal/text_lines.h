// Internal to the core (durable/ only): the word-level writer and reader the snapshot text and the
// journal record share (snapshot_text.cpp, journal_text.cpp), and the lines both
// write alike: a job's row, an entry's lease end, a backoff, the meta line, an
// event, a reorder (text_lines.cpp). The policy group is policy_line.h.
#pragma once

#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "durable.h"
#include "link_text.h"
#include "status.h"
#include "text.h"

namespace dlq::durable::text_lines {

const char* LeaseStateName(LeaseState s);
const char* FateName(Fate f);
// Eight lower-case hex digits (a checksum's form).
std::string Hex8(uint32_t v);

// ---- writing -------------------------------------------------------------------

class Out {
 public:
  explicit Out(std::string& s) : s_(s) {}
  Out& Word(std::string_view w) {
    Sep();
    s_.append(w);
    return *this;
  }
  Out& U(uint64_t v) { return Number(v); }
  Out& I(int64_t v) { return Number(v); }
  Out& B(bool v) { return Word(v ? "1" : "0"); }
  Out& Str(std::string_view v) {
    Sep();
    s_.push_back('"');
    link::AppendEncoded(s_, v);
    s_.push_back('"');
    return *this;
  }
  void Line() {
    s_.push_back('\n');
    first_ = true;
  }

 private:
  template <typename T>
  Out& Number(T v) {
    char digits[24];
    const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, v);
    (void)ec;  // 24 characters hold every 64-bit integer
    return Word(std::string_view(digits, static_cast<size_t>(end - digits)));
  }
  void Sep() {
    if (!first_) s_.push_back(' ');
    first_ = false;
  }
  std::string& s_;
  bool first_ = true;
};

// ---- reading -------------------------------------------------------------------

// A strict reader over space-separated words; every error names where it is.
class In {
 public:
  In(std::string_view text, std::string where) : text_(text), where_(std::move(where)) {}
  bool done() const { return pos_ >= text_.size(); }
  // The next word (up to a space or the end); empty at the end.
  std::string_view Peek() const {
    size_t end = pos_;
    while (end < text_.size() && text_[end] != ' ') ++end;
    return text_.substr(pos_, end - pos_);
  }
  std::string_view Next() {
    const std::string_view w = Peek();
    pos_ += w.size();
    if (pos_ < text_.size()) {
      ++pos_;                                            // the space
      if (pos_ == text_.size()) trailing_space_ = true;  // a separator with nothing after it
    }
    return w;
  }
  // True at the end of the text with no trailing separator (the writer never writes one).
  bool clean_end() const { return done() && !trailing_space_; }
  Status Error(const std::string& what, std::string_view got) const {
    return Status::Error(Code::kInvalidSnapshot, where_ + ": expected " + what + ", got " +
                                                     (got.empty() ? std::string("nothing") : QuoteShort(got, 32)));
  }
  Status Word(std::string_view expected) {
    const std::string_view w = Next();
    if (w != expected) return Error(std::string(1, '"').append(expected).append(1, '"'), w);
    return Status::Ok();
  }
  template <typename T>
  Status Int(const char* what, T* out, T min = std::numeric_limits<T>::min(), T max = std::numeric_limits<T>::max()) {
    const std::string_view w = Next();
    T v{};
    const bool canonical = !w.empty() && (w == "0" || (w[0] != '0' && !(w[0] == '-' && (w.size() < 2 || w[1] == '0'))));
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (!canonical || ec != std::errc() || end != w.data() + w.size() || v < min || v > max) {
      return Error(std::string(what) + " (an integer from " + std::to_string(min) + " to " + std::to_string(max) + ")",
                   w);
    }
    *out = v;
    return Status::Ok();
  }
  Status Bool(const char* what, bool* out) {
    const std::string_view w = Next();
    if (w != "0" && w != "1") return Error(std::string(what) + " (0 or 1)", w);
    *out = w == "1";
    return Status::Ok();
  }
  Status Str(const char* what, std::string* out) {
    const std::string_view w = Next();
    if (w.size() < 2 || w.front() != '"' || w.back() != '"') return Error(std::string(what) + " (a quoted string)", w);
    out->clear();
    for (size_t i = 1; i + 1 < w.size(); ++i) {
      const auto c = static_cast<unsigned char>(w[i]);
      if (c == '%') {
        const int hi = i + 3 < w.size() ? Hex(w[i + 1]) : -1, lo = i + 3 < w.size() ? Hex(w[i + 2]) : -1;
        const auto decoded = static_cast<unsigned char>(hi * 16 + lo);
        if (hi < 0 || lo < 0 || link::IsSafe(decoded)) return Error(std::string(what) + " (canonical %HH escapes)", w);
        out->push_back(static_cast<char>(decoded));
        i += 2;
      } else if (link::IsSafe(c)) {
        out->push_back(static_cast<char>(c));
      } else {
        return Error(std::string(what) + " (percent-encoded)", w);
      }
    }
    return Status::Ok();
  }
  // One of the `count` names `name(k)` gives, as the enum value k.
  template <typename E, typename NameOf>
  Status Name(const char* what, int count, NameOf name, E* out, bool dash_is_zero = false) {
    const std::string_view w = Next();
    if (dash_is_zero && w == "-") {
      *out = static_cast<E>(0);
      return Status::Ok();
    }
    for (int k = dash_is_zero ? 1 : 0; k < count; ++k) {
      if (w == name(static_cast<E>(k))) {
        *out = static_cast<E>(k);
        return Status::Ok();
      }
    }
    return Error(what, w);
  }

 private:
  static int Hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;  // lower case is not canonical
  }
  std::string_view text_;
  size_t pos_ = 0;
  bool trailing_space_ = false;
  std::string where_;
};

constexpr int kReasonCount = 6;
constexpr int kDispositionCount = 5;
constexpr int kBackoffKindCount = 3;
constexpr int kJitterCount = 5;
constexpr int kOrderingCount = 3;
constexpr int kDeliveryLimitCount = 4;
constexpr int kDeadLetterExchangeCount = 2;
constexpr int kDelayAtCount = 3;
constexpr int kLeaseStateCount = 3;
constexpr int kFateCount = 4;

void PutRow(Out& o, const JobRow& r);
void PutEnds(Out& o, const Entry& e);
void PutBackoff(Out& o, const Backoff& b);
void PutMeta(Out& o, const Meta& m);
void PutEvent(Out& o, const EventRecord& e);
void PutReorder(Out& o, const Reorder& r);

Status GetRow(In& in, JobRow* r);
Status GetEnds(In& in, Entry* e);
Status GetBackoff(In& in, Backoff* b);
Status GetMeta(In& in, Meta* m);
Status GetEvent(In& in, EventRecord* e);
Status GetReorder(In& in, Reorder* r);
// The line's end: nothing after its last word, not even a space.
Status End(In& in);

}  // namespace dlq::durable::text_lines
