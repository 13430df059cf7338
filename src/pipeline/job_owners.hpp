// `--job-by` for a classified run: the jobs made from who ran on each GPU, as the source last
// listed its processes (or pods) by the end of the run, named as `watch` names them.
#pragma once

#include "pipeline/classify_stream.hpp"
#include "watch/process_identity.hpp"

namespace wt {

// Groups result's GPUs whose processes all belong to one pod, Slurm job or container (`by`) into
// that job (pipeline/job_groups), and notes in result.diagnostics why no job was made when none
// was: the source lists no process (a trace), or no GPU's processes share one owner.
void group_jobs_by_owner(ClassifyResult& result, watch::JobOwner by, const watch::ProcessResolver& resolver);

}  // namespace wt
