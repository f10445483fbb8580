// Link format v2's world fields (link_v2.cpp has the format): y, the world's
// workers, work time and outage, and h, the jobs' behaviours.
#include "link.h"

namespace dlq::link {

// The y field's body: <workers>.<workMs>[.<outageStartMs>.<outageEndMs>].
Status ReadWorld(Reader& in, World* world) {
  uint64_t workers = 0, work_ms = 0, start = 0, end = 0;
  RETURN_IF_ERROR(in.Number("world.workers", 2, &workers));
  if (!in.Accept('.')) return in.Error("'.' between world.workers and world.workMs");
  RETURN_IF_ERROR(in.Number("world.workMs", 8, &work_ms));
  world->workers = static_cast<int64_t>(workers);
  world->work_ms = static_cast<int64_t>(work_ms);
  if (in.Accept('.')) {
    RETURN_IF_ERROR(in.Number("world.outage.startMs", 16, &start));
    if (!in.Accept('.')) return in.Error("'.' between world.outage.startMs and world.outage.endMs");
    RETURN_IF_ERROR(in.Number("world.outage.endMs", 16, &end));
    world->outage_start = static_cast<int64_t>(start);
    world->outage_end = static_cast<int64_t>(end);
  }
  if (Status s = CheckWorld(*world); !s.ok()) return Status::Error(s.code(), "scenario link: " + s.message());
  return Status::Ok();
}

void AppendWorld(std::string& out, const World& w) {
  const World plain;
  if (w.workers == plain.workers && w.work_ms == plain.work_ms && w.outage_start == w.outage_end) return;
  out.append(";y").append(std::to_string(w.workers)).append(".").append(std::to_string(w.work_ms));
  if (w.outage_start != w.outage_end) {
    out.append(".").append(std::to_string(w.outage_start)).append(".").append(std::to_string(w.outage_end));
  }
}

// The h field's body: <id>:<kind>[-],… (one or more).
Status ReadBehaviours(Reader& in, World* world) {
  do {
    JobBehaviour& jb = world->behaviours.emplace_back();
    Behaviour& b = jb.behaviour;
    const std::string n = "behaviour " + std::to_string(world->behaviours.size());
    RETURN_IF_ERROR(in.String(n + " id", &jb.id));
    if (!in.Accept(':')) return in.Error("':' between " + n + "'s id and kind");
    const char kind = in.peek();
    uint64_t number = 0;
    if (kind == 'h') {
      in.Accept(kind);
    } else if (kind == 'p') {
      in.Accept(kind);
      b.kind = BehaviourKind::kPoison;
      if (!ParseOutcomeLetter(in.peek(), &b.failure, true) || b.failure == Outcome::kSuccess) {
        return in.Error("a failing outcome letter (t, p, u, v, q) for " + n);
      }
      in.Accept(in.peek());
    } else if (kind == 'f' || kind == 'c' || kind == 'q') {
      in.Accept(kind);
      b.kind = kind == 'f'   ? BehaviourKind::kFlaky
               : kind == 'c' ? BehaviourKind::kCrashes
                             : BehaviourKind::kPrecondition;
      RETURN_IF_ERROR(in.Number(n + (kind == 'q' ? " until" : " count"), kind == 'q' ? 16 : 7, &number));
      (kind == 'q' ? b.until : b.count) = static_cast<int64_t>(number);
    } else if (kind == 'm') {
      in.Accept(kind);
      b.kind = BehaviourKind::kMalformed;
    } else if (kind == 'x') {
      in.Accept(kind);
      b.kind = BehaviourKind::kScript;
      while (!in.done() && std::string_view("stpuvqc").find(in.peek()) != std::string_view::npos) {
        b.script += in.peek();
        in.Accept(in.peek());
      }
    } else {
      return in.Error("a behaviour for " + n + " (h, p<outcome>, f<count>, q<untilMs>, c<count>, x<letters>, m)");
    }
    b.needs_dependency = !in.Accept('-');
    if (!in.done() && in.peek() != ',' && in.peek() != ';') {
      return in.Error("',' before the next behaviour, ';' or the end of the link");
    }
  } while (in.Accept(','));
  if (Status s = CheckWorld(*world); !s.ok()) return Status::Error(s.code(), "scenario link: " + s.message());
  return Status::Ok();
}

void AppendBehaviours(std::string& out, const std::vector<JobBehaviour>& behaviours) {
  bool first = true;
  for (const JobBehaviour& jb : behaviours) {
    const Behaviour& b = jb.behaviour;
    if (b == Behaviour{}) continue;
    out += first ? ";h" : ",";
    first = false;
    AppendEncoded(out, jb.id);
    out += ':';
    switch (b.kind) {
      case BehaviourKind::kHealthy: out += 'h'; break;
      case BehaviourKind::kPoison: out.append(1, 'p').append(1, OutcomeLetter(b.failure)); break;
      case BehaviourKind::kFlaky: out += 'f' + std::to_string(b.count); break;
      case BehaviourKind::kPrecondition: out += 'q' + std::to_string(b.until); break;
      case BehaviourKind::kCrashes: out += 'c' + std::to_string(b.count); break;
      case BehaviourKind::kScript: out += 'x' + b.script; break;
      case BehaviourKind::kMalformed: out += 'm'; break;
    }
    if (!b.needs_dependency) out += '-';
  }
}

}  // namespace dlq::link
