#include "analyzer/report/TextReport.h"

#include "analyzer/Analyzer.h"
#include "analyzer/report/CallSiteGroups.h"
#include "analyzer/report/PerfReport.h"
#include "analyzer/report/Ranking.h"

#include <cstdio>
#include <set>
#include <sstream>

namespace gpurace::analyzer {

namespace {

class Styler {
public:
  explicit Styler(bool color) : color_(color) {}
  std::string bold(const std::string &s) const { return wrap("\033[1m", s); }
  std::string warning(const std::string &s) const { return wrap("\033[1;35m", s); }
  std::string error(const std::string &s) const { return wrap("\033[1;31m", s); }
  std::string note(const std::string &s) const { return wrap("\033[1;36m", s); }
  std::string caret(const std::string &s) const { return wrap("\033[1;32m", s); }

private:
  std::string wrap(const char *code, const std::string &s) const {
    return color_ ? code + s + "\033[0m" : s;
  }
  bool color_;
};

std::string position(const v1::SourceLocation &l) {
  return l.file() + ":" + std::to_string(l.line()) + ":" + std::to_string(l.column());
}

// The site's line and a caret line underlining the access.
void writeSnippet(const v1::AccessSite &site, const Styler &style,
                  std::ostream &out) {
  const v1::SourceExcerpt &excerpt = site.excerpt();
  int index = static_cast<int>(site.location().line()) -
              static_cast<int>(excerpt.first_line());
  if (index < 0 || index >= excerpt.lines_size())
    return;
  const std::string &line = excerpt.lines(index);
  out << line << "\n";
  std::string marks;
  unsigned column = site.location().column();
  unsigned end = site.location().end_line() == site.location().line()
                     ? site.location().end_column()
                     : column;
  for (unsigned c = 1; c < column && c <= line.size(); ++c)
    marks += line[c - 1] == '\t' ? '\t' : ' ';
  marks += '^';
  for (unsigned c = column + 1; c <= end; ++c)
    marks += '~';
  out << style.caret(marks) << "\n";
}

std::string describe(const v1::ThreadCoord &t) {
  std::ostringstream s;
  s << "thread (" << t.thread_idx().x() << "," << t.thread_idx().y() << ","
    << t.thread_idx().z() << ") of block (" << t.block_idx().x() << ","
    << t.block_idx().y() << "," << t.block_idx().z() << ")";
  return s.str();
}

std::string witnessText(const v1::RaceCandidate &c) {
  if (!c.has_witness())
    return "";
  const v1::Witness &w = c.witness();
  std::ostringstream s;
  s << describe(w.first()) << " and " << describe(w.second());
  if (c.race_class() == v1::RACE_CLASS_BARRIER_DIVERGENCE)
    s << " disagree on reaching it";
  else if (!w.index().empty())
    s << " both access element " << w.index() << " (byte offset "
      << w.byte_offset() << ")";
  s << "; blockDim=(" << w.block_dim().x() << "," << w.block_dim().y() << ","
    << w.block_dim().z() << ") gridDim=(" << w.grid_dim().x() << ","
    << w.grid_dim().y() << "," << w.grid_dim().z() << ")";
  for (const v1::NamedValue &p : w.parameters())
    s << " " << p.name() << "=" << p.value();
  return s.str();
}


// `gpurace analyze --fix`: the verified change under the finding, its
// removed and added lines as the diff has them.
void writeRepair(const v1::Repair &repair, const std::string &where, const Styler &style,
                 std::ostream &out) {
  out << style.bold(where + ": ") << style.note("note:");
  if (!repair.verified()) {
    out << " no verified repair: " << repair.unrepaired_reason() << "\n";
    return;
  }
  if (repair.kind() == v1::REPAIR_KIND_SHARED) {
    out << " fix-it: removed by the repair of finding " << repair.repaired_with() << "\n";
    return;
  }
  out << " fix-it: " << repair.summary() << " (verified: the race is gone, no new finding)\n";
  std::istringstream diff(repair.diff());
  for (std::string line; std::getline(diff, line);)
    if ((line[0] == '+' || line[0] == '-') && line.rfind("+++", 0) != 0 &&
        line.rfind("---", 0) != 0)
      out << "  " << line << "\n";
  if (!repair.prerequisite().empty())
    out << style.bold(where + ": ") << style.note("note:") << " it needs "
        << repair.prerequisite() << "\n";
}

// The calls from the kernel's body down to an inlined access, innermost
// first, as clang names the instantiations that led to a diagnostic.
void writeCallStack(const v1::AccessSite &site, const std::string &access,
                    const Styler &style, std::ostream &out) {
  for (int k = site.call_stack_size() - 1; k >= 0; --k) {
    const v1::CallFrame &frame = site.call_stack(k);
    std::string subject = k == site.call_stack_size() - 1
                              ? access + " is in '" + frame.callee() + "', called"
                              : "'" + frame.callee() + "' is called";
    out << style.bold(position(frame.call_site()) + ": ") << style.note("note:") << " "
        << subject << " from '" << frame.call_site().function() << "' here\n";
  }
}

// The other candidates of a group reach the same two accesses through other
// calls: named, not repeated.
void writeOtherCalls(const v1::RaceCandidate &shown,
                     const google::protobuf::RepeatedPtrField<v1::RaceCandidate> &candidates,
                     const CallSiteGroup &group, const Styler &style, std::ostream &out) {
  const size_t kListed = 3;
  size_t others = group.members.size() - 1;
  if (others == 0)
    return;
  out << style.bold(position(shown.first().location()) + ": ") << style.note("note:") << " "
      << others << " more " << (others == 1 ? "pair of calls reaches" : "pairs of calls reach")
      << " the same two accesses: ";
  for (size_t i = 1; i < group.members.size() && i <= kListed; ++i)
    out << (i == 1 ? "" : "; ") << callPairText(candidates[group.members[i]]);
  if (others > kListed)
    out << "; and " << others - kListed << " more (each is in the JSON output)";
  out << "\n";
}

void writeCandidate(const v1::RaceCandidate &c, const Styler &style,
                    std::ostream &out) {
  std::string check = "[gpurace-" + raceClassName(c.race_class()) + "]";
  out << style.bold(position(c.first().location()) + ": ")
      << style.warning("warning:") << " " << style.bold(c.message() + " " + check)
      << "\n";
  writeSnippet(c.first(), style, out);
  writeCallStack(c.first(), "the access", style, out);
  if (c.race_class() != v1::RACE_CLASS_BARRIER_DIVERGENCE) {
    std::string kind = c.second().kind() == v1::ACCESS_KIND_WRITE    ? "write"
                       : c.second().kind() == v1::ACCESS_KIND_ATOMIC ? "atomic access"
                                                                      : "read";
    out << style.bold(position(c.second().location()) + ": ") << style.note("note:")
        << " conflicting " << kind << " of '" << c.second().base_object() << "' here\n";
    writeSnippet(c.second(), style, out);
    writeCallStack(c.second(), "the conflicting " + kind, style, out);
  }
  std::string defect = defectText(c.defect());
  std::string where = position(c.first().location());
  if (!defect.empty())
    out << style.bold(where + ": ") << style.note("note:") << " " << defect << "\n";
  std::string witness = witnessText(c);
  if (!witness.empty())
    out << style.bold(where + ": ") << style.note("note:") << " witness: " << witness << "\n";
  if (c.has_launch_site())
    out << style.bold(position(c.launch_site().location()) + ": ") << style.note("note:")
        << " in this launch of '" << c.kernel() << "'\n";
  for (const v1::SourceLocation &call : c.launch_site().called_from())
    out << style.bold(position(call) + ": ") << style.note("note:") << " called from '"
        << call.function() << "' here\n";
  for (const v1::Imprecision &i : c.imprecisions())
    out << style.bold(where + ": ") << style.note("note:")
        << (i.guard_only() ? " imprecise guard: " : " imprecise: ") << i.detail() << "\n";
  if (c.has_suppression())
    out << style.bold(where + ": ") << style.note("note:")
        << " marked intentional: " << c.suppression().reason() << "\n";
  if (!c.benign().empty())
    out << style.bold(where + ": ") << style.note("note:") << " benign: " << c.benign()
        << "\n";
  if (c.has_repair())
    writeRepair(c.repair(), where, style, out);
  char score[32];
  std::snprintf(score, sizeof score, "%.2f", c.score());
  out << style.bold(where + ": ") << style.note("note:") << " score " << score
      << (!c.benign().empty()     ? " (benign: not a finding)"
          : c.below_threshold() ? " (below the --min-score threshold)"
                                : "")
      << "\n";
}

std::string launchText(const v1::PerfFinding &f) {
  std::ostringstream s;
  s << "blockDim=(" << f.block_dim().x() << "," << f.block_dim().y() << "," << f.block_dim().z()
    << ") gridDim=(" << f.grid_dim().x() << "," << f.grid_dim().y() << "," << f.grid_dim().z()
    << ")";
  for (const v1::NamedValue &p : f.parameters())
    s << " " << p.name() << "=" << p.value();
  return s.str();
}

// A bank conflict or an uncoalesced access: the site, the witness warp and,
// with --explain, what each of its lanes accesses.
void writePerfFinding(const v1::PerfFinding &f, const TextReportOptions &options,
                      const Styler &style, std::ostream &out) {
  std::string where = position(f.site().location());
  out << style.bold(where + ": ") << (f.proved() ? style.note("note:") : style.warning("warning:"))
      << " " << style.bold(f.message() + " [gpurace-perf-" + perfKindName(f.kind()) + "]")
      << "\n";
  writeSnippet(f.site(), style, out);
  if (!f.proved())
    out << style.bold(where + ": ") << style.note("note:") << " witness: the warp of "
        << describe(f.warp()) << "; " << launchText(f) << "\n";
  if (f.has_launch_site())
    out << style.bold(position(f.launch_site().location()) + ": ") << style.note("note:")
        << " in this launch of '" << f.kernel() << "'\n";
  for (const v1::Imprecision &i : f.imprecisions())
    out << style.bold(where + ": ") << style.note("note:") << " imprecise: " << i.detail()
        << "\n";
  if (options.explain) {
    const char *unit = f.kind() == v1::PERF_KIND_BANK_CONFLICT ? "bank" : "sector";
    for (const v1::LaneAccess &lane : f.lanes())
      out << style.bold(where + ": ") << style.note("note:") << " lane " << lane.lane() << ", "
          << describe(lane.thread()) << ": byte offset " << lane.byte_offset() << ", " << unit
          << " " << lane.unit() << "\n";
  }
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.1f", costRatio(f));
  out << style.bold(where + ": ") << style.note("note:") << " cost " << f.cost() << ", best "
      << f.best() << " (" << ratio << "x" << (f.in_loop() ? ", in a loop" : "") << ")"
      << (f.proved()            ? " (proved)"
          : f.below_threshold() ? " (below the --perf-min-ratio threshold)"
                                : "")
      << "\n";
}

std::string shortPosition(const v1::SourceLocation &l) {
  std::string file = l.file();
  size_t slash = file.rfind('/');
  return (slash == std::string::npos ? file : file.substr(slash + 1)) + ":" +
         std::to_string(l.line());
}

// "rows == cols (assert at main.cu:41)" from the description "assert: rows
// == cols": the label says what kind of code the fact came from.
std::string factText(const v1::Assumption &a) {
  const std::string &text = a.description();
  std::string where = a.has_location() ? shortPosition(a.location()) : "";
  for (const char *label : {"assert", "guard", "enclosing condition", "loop"}) {
    std::string prefix = std::string(label) + ": ";
    if (text.compare(0, prefix.size(), prefix) == 0)
      return text.substr(prefix.size()) + " (" + label +
             (where.empty() ? "" : " at " + where) + ")";
  }
  return where.empty() ? text : text + " (" + where + ")";
}

void writeProof(const v1::RaceFreedomProof &proof, const Styler &style,
                std::ostream &out) {
  out << style.bold(position(proof.first().location()) + ": ") << style.note("note:")
      << " '" << proof.first().expression() << "' and '" << proof.second().expression()
      << "' do not race";
  if (proof.has_launch_site())
    out << " in the launch at " << shortPosition(proof.launch_site().location());
  out << " because ";
  for (int i = 0; i < proof.assumptions_size(); ++i)
    out << (i == 0 ? "" : i + 1 == proof.assumptions_size() ? " and " : ", ")
        << factText(proof.assumptions(i));
  out << "\n";
}

// The assumptions of the analysis itself that race-free verdicts rest on
// (pointers of a launch wrapper taken as distinct buffers), once per launch.
void writeAnalysisAssumptions(const v1::AnalysisResult &result, const Styler &style,
                              std::ostream &out) {
  std::set<std::string> said;
  for (const v1::RaceFreedomProof &proof : result.race_freedom_proofs())
    for (const v1::Assumption &assumption : proof.assumptions()) {
      if (assumption.kind() != v1::HOST_FACT_KIND_ANALYSIS)
        continue;
      std::string line = position(assumption.location()) + ": ";
      if (!said.insert(line + assumption.description()).second)
        continue;
      out << style.bold(line) << style.note("note:") << " "
          << "in the launch of '" << proof.kernel() << "': " << assumption.description()
          << "\n";
    }
}

// How the files were parsed, and what of them was left out.
void writeFrontEnd(const v1::AnalysisResult &result, const Styler &style, std::ostream &out) {
  const v1::FrontEnd &front_end = result.front_end();
  if (front_end.headers().empty())
    return;
  out << style.note("note:") << " parsed ";
  if (front_end.headers() == "toolkit")
    out << "with the headers of CUDA " << front_end.cuda_version() << " at "
        << front_end.cuda_path() << " (" << front_end.found_by() << ")";
  else
    out << "with gpurace's own CUDA declarations (no CUDA toolkit used)";
  out << "; kernels as device code for " << front_end.gpu_arch()
      << ", launches as host code\n";
  if (front_end.dropped_flags_size()) {
    out << style.note("note:") << " compiler flags left out of the parse:";
    for (const std::string &flag : front_end.dropped_flags())
      out << " " << flag;
    out << "\n";
  }
  for (const std::string &file : front_end.included_inputs())
    out << style.note("note:") << " " << file
        << " is #included by another input and analyzed as part of it\n";
  for (const std::string &file : result.partial_files())
    out << style.note("note:") << " " << file
        << " was analyzed in part: Clang errors kept what they touch out\n";
}

} // namespace

void writeTextReport(const v1::AnalysisResult &result,
                     const TextReportOptions &options, std::ostream &out) {
  Styler style(options.color);
  for (const v1::FileError &e : result.errors()) {
    std::string where = e.file();
    if (e.line())
      where += ":" + std::to_string(e.line()) + ":" + std::to_string(e.column());
    out << style.bold(where + ": ") << style.error("error:") << " "
        << e.message() << "\n";
  }
  for (const v1::FileError &w : result.warnings()) {
    std::string where = w.file();
    if (w.line())
      where += ":" + std::to_string(w.line()) + ":" + std::to_string(w.column());
    out << style.bold(where + ": ") << style.warning("warning:") << " " << w.message()
        << "\n";
  }
  unsigned findings = 0;
  for (const v1::RaceCandidate &c : result.candidates())
    findings += isFinding(c, options.min_score);
  auto shown = [&](const v1::RaceCandidate &c) {
    return options.include_below_threshold || isFinding(c, options.min_score);
  };
  std::vector<CallSiteGroup> groups = groupByCallSites(result.candidates(), shown);
  for (const CallSiteGroup &group : groups) {
    const v1::RaceCandidate &c = result.candidates(group.members.front());
    writeCandidate(c, style, out);
    writeOtherCalls(c, result.candidates(), group, style, out);
  }
  unsigned perf_findings = 0;
  for (const v1::PerfFinding &f : result.perf_findings()) {
    bool finding = isPerfFinding(f);
    perf_findings += finding;
    if (finding || options.include_below_threshold)
      writePerfFinding(f, options, style, out);
  }
  if (options.explain)
    for (const v1::RaceFreedomProof &proof : result.race_freedom_proofs())
      writeProof(proof, style, out);
  else
    writeAnalysisAssumptions(result, style, out);
  writeFrontEnd(result, style, out);
  out << findings << (findings == 1 ? " race" : " races") << " found in "
      << result.kernels_analyzed() << " kernels of " << result.files_analyzed_size()
      << (result.files_analyzed_size() == 1 ? " file" : " files");
  unsigned repeated = 0;
  for (const CallSiteGroup &group : groups)
    for (size_t i = 1; i < group.members.size(); ++i)
      repeated += isFinding(result.candidates(group.members[i]), options.min_score);
  if (repeated)
    out << " (" << repeated << " of them through other calls of accesses shown once)";
  unsigned others = result.candidates_size() - findings;
  if (others)
    out << "; " << others << " more below the threshold, benign or marked intentional"
        << (options.include_below_threshold ? "" : " (--all shows them)");
  if (result.options().perf()) {
    out << "; " << perf_findings << " perf " << (perf_findings == 1 ? "finding" : "findings");
    unsigned other_perf = result.perf_findings_size() - perf_findings;
    if (other_perf)
      out << " (" << other_perf << " more proved or below the threshold"
          << (options.include_below_threshold ? "" : ", --all shows them") << ")";
  }
  if (result.errors_size())
    out << "; " << result.errors_size() << " errors";
  out << ".\n";
}

} // namespace gpurace::analyzer
