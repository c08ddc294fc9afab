//===- RepairMessages.h - repairs in the proto model ------------*- C++ -*-===//
//
// What `gpurace fix` and `gpurace analyze --fix` give users and the server:
// each finding's outcome as a `Repair` (its edits with their positions, and
// the change as a diff of its own), attached to the finding it repairs.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_ANALYZER_REPAIR_REPAIRMESSAGES_H
#define GPURACE_ANALYZER_REPAIR_REPAIRMESSAGES_H

#include "analyzer/repair/Repairer.h"

#include "gpurace/v1/analysis.pb.h"

#include <vector>

namespace gpurace::analyzer {

// One Repair per outcome, in order: edits and diff against the file as
// analyzed, where they can be.
std::vector<v1::Repair> repairMessages(const ProgramRepair &repair);

// Every repair, and the diff of each changed file with all of them.
v1::RepairResult repairResult(const ProgramRepair &repair);

// `result` with each finding's `repair` set (candidates of one fingerprint
// in several launch contexts share it).
void attachRepairs(const ProgramRepair &repair, v1::AnalysisResult &result);

} // namespace gpurace::analyzer

#endif
