// `workloadtruth record`: writes telemetry to a trace file that `--replay` reads back.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/run_guarded.hpp"
#include "cli/source_options.hpp"
#include "cli/stop_signal.hpp"
#include "output/classify_text.hpp"
#include "sink/trace_writer.hpp"

namespace wt::cli {
namespace {

struct RecordOptions {
  SourceOptions source;
  std::string out_path;
  std::string format;  // "" = from the file extension (.jsonl), else csv
  bool json = false;
};

int run_record(const RecordOptions& o) {
  if (o.source.print_scenarios_if_asked(std::cout)) return exit_code::kOk;
  TraceFormat format = TraceFormat::Csv;
  if (o.format == "jsonl" || (o.format.empty() && o.out_path.size() > 6 &&
                              o.out_path.compare(o.out_path.size() - 6, 6, ".jsonl") == 0))
    format = TraceFormat::Jsonl;

  std::error_code ec;
  for (const std::string& f : o.source.replay_files)
    if (std::filesystem::equivalent(parse_replay_file(f).path, o.out_path, ec))
      throw std::invalid_argument("--out is a file being replayed; refusing to overwrite it");
  const auto source = o.source.open();
  // Ctrl-C or SIGTERM ends a live recording after the poll in progress, with the file whole.
  // Set before the file is opened, so that a file on disk means a recording that stops cleanly.
  install_stop_handlers();
  // The first sample is read before --out is opened: a source that fails at once (a file whose
  // every line is bad) leaves a file already there as it was, instead of truncated to a header.
  Sample s;
  if (stop_signal() || !source->next(s)) {
    if (!stop_signal()) throw InputError(source->describe() + ": no samples; " + o.out_path + " not written");
    std::cerr << "workloadtruth: stopped by " << stop_signal_name(stop_signal()) << " before the first sample; "
              << o.out_path << " not written\n";
    return exit_code::kOk;
  }
  std::ofstream out(o.out_path, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError(o.out_path + ": cannot be written");
  const auto writer = make_trace_writer(format, out);
  std::size_t samples = 0;
  do {
    writer->write(s);
    ++samples;
  } while (!stop_signal() && source->next(s));
  out.flush();
  if (!out) throw InputError(o.out_path + ": write failed (disk full?)");

  const Diagnostics diags = source->diagnostics();
  print_diagnostics(std::cerr, diags);
  if (o.json) {
    nlohmann::json summary{{"out", o.out_path},
                           {"format", format == TraceFormat::Jsonl ? "jsonl" : "csv"},
                           {"source", source->describe()},
                           {"samples", samples}};
    if (const int sig = stop_signal()) summary["stopped_by"] = stop_signal_name(sig);
    std::cout << summary.dump() << '\n';
  } else {
    std::cout << "wrote " << samples << " samples from " << source->describe() << " to " << o.out_path;
    if (const int sig = stop_signal()) std::cout << " (stopped by " << stop_signal_name(sig) << ')';
    std::cout << '\n';
  }
  for (const auto& d : diags)
    if (d.is_error) return exit_code::kBadInput;
  return exit_code::kOk;
}

}  // namespace

Command add_record_command(CLI::App& app) {
  auto o = std::make_shared<RecordOptions>();
  CLI::App* sub = app.add_subcommand("record", "Record telemetry to a trace file (nvidia-smi CSV or JSONL)");
  o->source.add_to(*sub, "--input-format");
  o->source.add_follow_option(*sub);
  sub->add_option("--out", o->out_path, "Trace file to write")->required();
  sub->add_option("--format", o->format, "Output format: csv (nvidia-smi layout) or jsonl (default: from --out's extension)")
      ->check(CLI::IsMember({"csv", "jsonl"}));
  sub->add_flag("--json", o->json, "Print a JSON summary");
  return {sub, [o] { return run_guarded(o->json, [o] { return run_record(*o); }); }};
}

}  // namespace wt::cli
