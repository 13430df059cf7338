// The Prometheus exposition of watch's state (src/output/metrics_text.cpp) and the sink that
// keeps it (src/sink/metrics_sink.cpp).
#include "output/metrics_text.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "sink/metrics_sink.hpp"

namespace wt {
namespace {

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos;
}

TEST(MetricsText, OneHotVerdictCountersAndEscapedLabels) {
  GpuMetrics g;
  g.index = 3;
  g.uuid = "GPU-1";
  g.name = "odd \"name\" \\ with\nnewline";
  g.job = WorkloadType::Training;
  g.job_confidence = 0.875;
  g.training_score = 0.5;
  g.declared = WorkloadType::Inference;
  g.mismatch = true;
  g.windows[static_cast<std::size_t>(WorkloadType::Training)] = 12;
  g.last_window_end_s = 1767225630;
  const std::vector<GpuMetrics> gpus{g};
  const std::string text = metrics_text(gpus, "9.9.9");
  const std::string labels = R"(gpu="3",uuid="GPU-1",name="odd \"name\" \\ with\nnewline")";
  EXPECT_TRUE(text.starts_with("# HELP workloadtruth_build_info ")) << text;
  EXPECT_TRUE(has_line(text, R"(workloadtruth_build_info{version="9.9.9"} 1)"));
  EXPECT_TRUE(has_line(text, "workloadtruth_job_verdict{" + labels + R"(,class="TRAINING"} 1)")) << text;
  EXPECT_TRUE(has_line(text, "workloadtruth_job_verdict{" + labels + R"(,class="INFERENCE"} 0)"));
  EXPECT_TRUE(has_line(text, "workloadtruth_job_verdict{" + labels + R"(,class="UNKNOWN"} 0)"));
  EXPECT_TRUE(has_line(text, "workloadtruth_job_confidence{" + labels + "} 0.875"));
  EXPECT_TRUE(has_line(text, "workloadtruth_training_score{" + labels + "} 0.5"));
  EXPECT_TRUE(has_line(text, "workloadtruth_windows_total{" + labels + R"(,class="TRAINING"} 12)"));
  EXPECT_TRUE(has_line(text, "workloadtruth_windows_total{" + labels + R"(,class="HPC"} 0)"));
  EXPECT_TRUE(has_line(text, "workloadtruth_declared_info{" + labels + R"(,class="INFERENCE"} 1)"));
  EXPECT_TRUE(has_line(text, "workloadtruth_declared_mismatch{" + labels + "} 1"));
  EXPECT_TRUE(has_line(text, "workloadtruth_last_window_end_seconds{" + labels + "} 1767225630"));
  EXPECT_TRUE(has_line(text, "# TYPE workloadtruth_windows_total counter"));
  EXPECT_TRUE(text.ends_with("\n"));
}

TEST(MetricsText, AGpuWithoutVerdictOrDeclarationShowsOnlyItsCounters) {
  GpuMetrics g;
  g.uuid = "GPU-2";
  const std::vector<GpuMetrics> gpus{g};
  const std::string text = metrics_text(gpus, "1");
  EXPECT_EQ(text.find("workloadtruth_job_verdict{"), std::string::npos);
  EXPECT_EQ(text.find("workloadtruth_training_score{"), std::string::npos);
  EXPECT_EQ(text.find("workloadtruth_declared_mismatch{"), std::string::npos);
  EXPECT_TRUE(has_line(text, R"(workloadtruth_windows_total{gpu="0",uuid="GPU-2",name="",class="IDLE"} 0)"));
  EXPECT_NE(metrics_text({}, "1").find("workloadtruth_build_info{"), std::string::npos);  // no GPU yet
}

TEST(MetricsSink, FollowsTheWatchedGpu) {
  watch::GpuWatch gpu(GpuIdentity{1, "GPU-x", "NVIDIA H100 80GB HBM3", "", ""}, {}, {});
  gpu.job.update(WorkloadType::Hpc, 0.9, 0);
  gpu.declared = WorkloadType::Hpc;
  const Window window{0, 30, {}, false};
  Verdict v;
  v.type = WorkloadType::Hpc;
  v.confidence = 0.9;
  MetricsSink sink;
  sink.on_window(gpu, window, v, true, 100);
  sink.on_window(gpu, Window{15, 45, {}, false}, v, false, 115);
  const std::string text = sink.render();
  const std::string labels = R"(gpu="1",uuid="GPU-x",name="NVIDIA H100 80GB HBM3")";
  EXPECT_TRUE(has_line(text, "workloadtruth_job_verdict{" + labels + R"(,class="HPC"} 1)")) << text;
  EXPECT_TRUE(has_line(text, "workloadtruth_windows_total{" + labels + R"(,class="HPC"} 2)"));
  EXPECT_TRUE(has_line(text, "workloadtruth_declared_mismatch{" + labels + "} 0"));
  EXPECT_TRUE(has_line(text, "workloadtruth_last_window_end_seconds{" + labels + "} 45"));
  EXPECT_EQ(text.find("workloadtruth_training_score{"), std::string::npos);  // the rules give none
}

TEST(MetricsSink, AGpusJobLabelFollowsItsJob) {
  // --job-by: the GPU's first window came before its pod was listed; the label follows the pod.
  watch::GpuWatch gpu(GpuIdentity{0, "GPU-y", "NVIDIA A100", "", ""}, {}, {});
  gpu.job.update(WorkloadType::Training, 0.9, 0);
  Verdict v;
  v.type = WorkloadType::Training;
  MetricsSink sink;
  sink.on_window(gpu, Window{0, 30, {}, false}, v, true, 100);
  EXPECT_EQ(sink.render().find("job_group="), std::string::npos);
  gpu.job_group = "pod:trainer";
  sink.on_window(gpu, Window{15, 45, {}, false}, v, false, 115);
  EXPECT_TRUE(has_line(sink.render(),
                       R"(workloadtruth_job_verdict{gpu="0",uuid="GPU-y",name="NVIDIA A100",job_group="pod:trainer",class="TRAINING"} 1)"));
}

TEST(MetricsSink, GpusOfSeveralHostsAreSeriesOfTheirOwn) {
  // A Prometheus range read back: two nodes' GPU 0, told apart by host alone.
  Verdict v;
  v.type = WorkloadType::Idle;
  MetricsSink sink;
  for (const char* host : {"n1", "n2"}) {
    watch::GpuWatch gpu(GpuIdentity{0, "", "NVIDIA A100", "", host}, {}, {});
    gpu.job.update(WorkloadType::Idle, 0.9, 0);
    sink.on_window(gpu, Window{0, 30, {}, false}, v, true, 100);
  }
  const std::string text = sink.render();
  for (const char* host : {"n1", "n2"})
    EXPECT_TRUE(has_line(text, std::string(R"(workloadtruth_windows_total{gpu="0",uuid="",name="NVIDIA A100",host=")") +
                                   host + R"(",class="IDLE"} 1)"))
        << text;
}

}  // namespace
}  // namespace wt
