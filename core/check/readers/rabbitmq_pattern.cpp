#include "rabbitmq_pattern.h"

#include <memory>
#include <utility>

namespace dlq::check {
namespace {

// The most instructions a pattern compiles to ({n,m} copies its operand).
constexpr size_t kMaxProgram = 20'000;
constexpr int kMaxRepeat = 1000;

// The parsed pattern, before it is laid out as instructions.
struct Re {
  enum class Kind : uint8_t { kSet, kConcat, kAlt, kRepeat, kBol, kEol } kind = Kind::kConcat;
  std::bitset<256> set;
  std::vector<std::unique_ptr<Re>> parts;
  int min = 0, max = 0;  // kRepeat; max -1: no bound
};

std::bitset<256> Range(unsigned from, unsigned to) {
  std::bitset<256> s;
  for (unsigned c = from; c <= to; ++c) s.set(c);
  return s;
}
std::bitset<256> Digits() { return Range('0', '9'); }
std::bitset<256> Word() { return Range('a', 'z') | Range('A', 'Z') | Digits() | Range('_', '_'); }
std::bitset<256> Spaces() { return Range(' ', ' ') | Range('\t', '\r'); }

}  // namespace

class PatternCompiler {
 public:
  explicit PatternCompiler(std::string_view text) : text_(text) {}

  Result<PolicyPattern> Compile() {
    std::unique_ptr<Re> re;
    RETURN_IF_ERROR(Alternation(&re));
    if (at_ < text_.size()) return Fail("an operator or the end, got an unmatched ')'");
    PolicyPattern out;
    out_ = &out;
    RETURN_IF_ERROR(Emit(*re));
    out.program_.push_back({PolicyPattern::Op::kMatch});
    if (out.program_.size() > kMaxProgram) return Fail("a pattern of at most 20,000 steps once its {n,m} are expanded");
    Literal(*re, &out);
    return out;
  }

 private:
  Status Fail(std::string_view what) const {
    return Status::InvalidArgument("pattern " + std::string(text_) + ": at character " + std::to_string(at_ + 1) +
                                   ": expected " + std::string(what));
  }
  bool Peek(char c) const { return at_ < text_.size() && text_[at_] == c; }

  Status Alternation(std::unique_ptr<Re>* out) {
    auto alt = std::make_unique<Re>();
    alt->kind = Re::Kind::kAlt;
    do {
      std::unique_ptr<Re> branch;
      RETURN_IF_ERROR(Sequence(&branch));
      alt->parts.push_back(std::move(branch));
    } while (Peek('|') && ++at_);
    *out = alt->parts.size() == 1 ? std::move(alt->parts.front()) : std::move(alt);
    return Status::Ok();
  }

  Status Sequence(std::unique_ptr<Re>* out) {
    auto seq = std::make_unique<Re>();
    while (at_ < text_.size() && !Peek('|') && !Peek(')')) {
      std::unique_ptr<Re> atom;
      RETURN_IF_ERROR(Atom(&atom));
      RETURN_IF_ERROR(Quantified(&atom));
      seq->parts.push_back(std::move(atom));
    }
    *out = std::move(seq);
    return Status::Ok();
  }

  Status Atom(std::unique_ptr<Re>* out) {
    auto re = std::make_unique<Re>();
    re->kind = Re::Kind::kSet;
    const char c = text_[at_++];
    if (c == '(') {
      if (Peek('?')) {
        if (text_.substr(at_, 2) != "?:") return Fail("a group ( ) or (?: ), got look-around or a named group");
        at_ += 2;
      }
      RETURN_IF_ERROR(Alternation(&re));
      if (!Peek(')')) return Fail("')' closing the group");
      ++at_;
    } else if (c == '[') {
      RETURN_IF_ERROR(Class(&re->set));
    } else if (c == '\\') {
      RETURN_IF_ERROR(Escape(&re->set));
    } else if (c == '.') {
      re->set = Range(0, 255) & ~Range('\n', '\n');
    } else if (c == '^' || c == '$') {
      re->kind = c == '^' ? Re::Kind::kBol : Re::Kind::kEol;
    } else if (c == '*' || c == '+' || c == '?' || c == '{') {
      --at_;
      return Fail("something to repeat before a quantifier");
    } else {
      re->set.set(static_cast<unsigned char>(c));
    }
    *out = std::move(re);
    return Status::Ok();
  }

  Status Escape(std::bitset<256>* set) {
    if (at_ >= text_.size()) return Fail("a character after '\\'");
    const char e = text_[at_++];
    switch (e) {
      case 'd': *set |= Digits(); break;
      case 'w': *set |= Word(); break;
      case 's': *set |= Spaces(); break;
      case 'D': *set |= ~Digits(); break;
      case 'W': *set |= ~Word(); break;
      case 'S': *set |= ~Spaces(); break;
      case 'n': set->set('\n'); break;
      case 't': set->set('\t'); break;
      default:
        if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9')) {
          --at_;
          return Fail(
              "an escaped punctuation mark or \\d \\w \\s \\D \\W \\S, got a back-reference or an escape not read");
        }
        set->set(static_cast<unsigned char>(e));
    }
    return Status::Ok();
  }

  Status Class(std::bitset<256>* set) {
    const bool negated = Peek('^') && ++at_;
    std::bitset<256> s;
    for (bool first = true; first || !Peek(']'); first = false) {
      if (at_ >= text_.size()) return Fail("']' closing the class");
      unsigned lo = static_cast<unsigned char>(text_[at_++]);
      if (lo == '\\') {
        std::bitset<256> escaped;
        RETURN_IF_ERROR(Escape(&escaped));
        if (escaped.count() != 1) {
          s |= escaped;
          continue;
        }
        for (unsigned c = 0; c < 256; ++c)
          if (escaped.test(c)) lo = c;
      }
      if (Peek('-') && at_ + 1 < text_.size() && text_[at_ + 1] != ']') {
        unsigned hi = static_cast<unsigned char>(text_[at_ + 1]);
        if (hi == '\\' || hi < lo) return Fail("a range from a lower to a higher character");
        at_ += 2;
        s |= Range(lo, hi);
      } else {
        s.set(lo);
      }
    }
    ++at_;
    *set = negated ? ~s : s;
    return Status::Ok();
  }

  // {n}, {n,}, {n,m}: the bounds, or false when the brace is not a quantifier.
  Status Braces(int* min, int* max) {
    auto number = [&](int* n) {
      size_t start = at_;
      int64_t v = 0;
      while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9' && v <= kMaxRepeat)
        v = v * 10 + (text_[at_++] - '0');
      *n = static_cast<int>(v);
      return at_ > start && v <= kMaxRepeat;
    };
    ++at_;
    if (!number(min)) return Fail("a repeat count from 0 to 1000 after '{'");
    *max = *min;
    if (Peek(',')) {
      ++at_;
      *max = -1;
      if (!Peek('}') && (!number(max) || *max < *min)) return Fail("an upper repeat count from the lower one to 1000");
    }
    if (!Peek('}')) return Fail("'}' closing the repeat count");
    ++at_;
    return Status::Ok();
  }

  Status Quantified(std::unique_ptr<Re>* atom) {
    while (at_ < text_.size() && (Peek('*') || Peek('+') || Peek('?') || Peek('{'))) {
      int min = 0, max = -1;
      if (Peek('{')) {
        RETURN_IF_ERROR(Braces(&min, &max));
      } else {
        const char q = text_[at_++];
        min = q == '+' ? 1 : 0;
        max = q == '?' ? 1 : -1;
      }
      if (Peek('?') || Peek('+')) ++at_;  // lazy or possessive: the same names match
      auto rep = std::make_unique<Re>();
      rep->kind = Re::Kind::kRepeat;
      rep->min = min;
      rep->max = max;
      rep->parts.push_back(std::move(*atom));
      *atom = std::move(rep);
    }
    return Status::Ok();
  }

  int Here() const { return static_cast<int>(out_->program_.size()); }
  int Push(PolicyPattern::Op op, int x = 0, int y = 0) {
    out_->program_.push_back({op, x, y});
    return Here() - 1;
  }

  Status Emit(const Re& re) {
    if (out_->program_.size() > kMaxProgram)
      return Fail("a pattern of at most 20,000 steps once its {n,m} are expanded");
    using Op = PolicyPattern::Op;
    switch (re.kind) {
      case Re::Kind::kSet:
        out_->sets_.push_back(re.set);
        Push(Op::kSet, static_cast<int>(out_->sets_.size()) - 1);
        return Status::Ok();
      case Re::Kind::kBol: Push(Op::kBol); return Status::Ok();
      case Re::Kind::kEol: Push(Op::kEol); return Status::Ok();
      case Re::Kind::kConcat:
        for (const auto& part : re.parts) RETURN_IF_ERROR(Emit(*part));
        return Status::Ok();
      case Re::Kind::kAlt: return EmitAlt(re, 0);
      case Re::Kind::kRepeat: return EmitRepeat(re);
    }
    return Status::Ok();
  }

  Status EmitAlt(const Re& re, size_t from) {
    if (from + 1 == re.parts.size()) return Emit(*re.parts[from]);
    const int split = Push(PolicyPattern::Op::kSplit);
    out_->program_[split].x = Here();
    RETURN_IF_ERROR(Emit(*re.parts[from]));
    const int jump = Push(PolicyPattern::Op::kJmp);
    out_->program_[split].y = Here();
    RETURN_IF_ERROR(EmitAlt(re, from + 1));
    out_->program_[jump].x = Here();
    return Status::Ok();
  }

  Status EmitRepeat(const Re& re) {
    using Op = PolicyPattern::Op;
    const Re& body = *re.parts.front();
    for (int i = 0; i < re.min; ++i) RETURN_IF_ERROR(Emit(body));
    if (re.max < 0) {  // a loop: split(body, out); body; jmp split
      const int split = Push(Op::kSplit);
      out_->program_[split].x = Here();
      RETURN_IF_ERROR(Emit(body));
      Push(Op::kJmp, split);
      out_->program_[split].y = Here();
      return Status::Ok();
    }
    std::vector<int> splits;
    for (int i = re.min; i < re.max; ++i) {  // each optional copy: split(body, end)
      splits.push_back(Push(Op::kSplit));
      out_->program_[splits.back()].x = Here();
      RETURN_IF_ERROR(Emit(body));
    }
    for (int split : splits) out_->program_[split].y = Here();
    return Status::Ok();
  }

  // A pattern that is a run of literal characters, anchored or not, is matched by a search.
  static void Literal(const Re& re, PolicyPattern* out) {
    std::vector<const Re*> parts;
    if (re.kind == Re::Kind::kConcat) {
      for (const auto& p : re.parts) parts.push_back(p.get());
    } else {
      parts.push_back(&re);
    }
    std::string literal;
    for (size_t i = 0; i < parts.size(); ++i) {
      const Re& p = *parts[i];
      if (p.kind == Re::Kind::kBol && i == 0) out->anchored_start_ = true;
      else if (p.kind == Re::Kind::kEol && i + 1 == parts.size()) out->anchored_end_ = true;
      else if (p.kind == Re::Kind::kSet && p.set.count() == 1) {
        for (unsigned c = 0; c < 256; ++c)
          if (p.set.test(c)) literal.push_back(static_cast<char>(c));
      } else {
        return;
      }
    }
    out->literal_ = std::move(literal);
    out->literal_only_ = true;
  }

  std::string_view text_;
  size_t at_ = 0;
  PolicyPattern* out_ = nullptr;
};

Result<PolicyPattern> PolicyPattern::Compile(std::string_view pattern) {
  if (pattern.size() > kMaxPatternBytes) {
    return Status::InvalidArgument("pattern: expected at most 1024 bytes, got " + std::to_string(pattern.size()));
  }
  return PatternCompiler(pattern).Compile();
}

bool PolicyPattern::Matches(std::string_view name) const {
  if (literal_only_) {
    if (anchored_start_ && anchored_end_) return name == literal_;
    if (anchored_start_) return name.starts_with(literal_);
    if (anchored_end_) return name.ends_with(literal_);
    return name.find(literal_) != std::string_view::npos;
  }
  // Thompson's simulation: the set of live instructions, advanced one byte at a time.
  const size_t n = program_.size();
  std::vector<int> current, next, stack;
  std::vector<size_t> seen(n, SIZE_MAX);
  size_t generation = 0;
  auto add = [&](std::vector<int>& list, int start, size_t pos) {
    stack.assign(1, start);
    while (!stack.empty()) {
      int pc = stack.back();
      stack.pop_back();
      if (seen[pc] == generation) continue;
      seen[pc] = generation;
      const Inst& in = program_[pc];
      switch (in.op) {
        case Op::kJmp: stack.push_back(in.x); break;
        case Op::kSplit:
          stack.push_back(in.y);
          stack.push_back(in.x);
          break;
        case Op::kBol:
          if (pos == 0) stack.push_back(pc + 1);
          break;
        case Op::kEol:
          if (pos == name.size()) stack.push_back(pc + 1);
          break;
        default: list.push_back(pc);
      }
    }
  };
  for (size_t pos = 0;; ++pos) {
    add(current, 0, pos);  // a search: a match may start at any byte
    for (int pc : current) {
      if (program_[pc].op == Op::kMatch) return true;
    }
    if (pos == name.size()) return false;
    ++generation;
    next.clear();
    const unsigned char c = static_cast<unsigned char>(name[pos]);
    for (int pc : current) {
      if (program_[pc].op == Op::kSet && sets_[program_[pc].x].test(c)) add(next, pc + 1, pos + 1);
    }
    std::swap(current, next);
  }
}

}  // namespace dlq::check
