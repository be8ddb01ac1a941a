package calendar

// The Cluster Autoscaler. Its minor version must be its cluster's: it
// carries a copy of kube-scheduler's predicates to simulate where pending
// pods would fit, and its releases are cut per Kubernetes minor
// (kubernetes/autoscaler, cluster-autoscaler/README.md, "Releases").
// The chart is pinned once and the image set per cluster
// (image.tag), as the chart's README advises for a cluster older than
// the chart's appVersion.
const (
	// ClusterAutoscalerChartRepository and ClusterAutoscalerChart are
	// the chart the project of kubernetes/autoscaler publishes.
	ClusterAutoscalerChartRepository = "https://kubernetes.github.io/autoscaler"
	ClusterAutoscalerChart           = "cluster-autoscaler"
	// ClusterAutoscalerChartVersion is the first chart whose default
	// image is 1.35 (kubernetes/autoscaler #9193, "CA: use 1.35.0 by
	// default in helm chart"; #10097: "Helm chart 9.54.0+ ... supporting
	// CA app version 1.35.0").
	ClusterAutoscalerChartVersion = "9.54.0"
	// ClusterAutoscalerSource is where the image table comes from, and
	// ClusterAutoscalerChecked the day it was read.
	ClusterAutoscalerSource  = "https://github.com/kubernetes/autoscaler/releases (as aws-ia/terraform-aws-eks-blueprints-addons #516 maps them, 2026-07-17; kubernetes/k8s.io #8815 for 1.32.5)"
	ClusterAutoscalerChecked = "2026-11-29"
)

// ClusterAutoscalerImages are the newest Cluster Autoscaler patch release
// of each Kubernetes minor version, as image tags of
// registry.k8s.io/autoscaling/cluster-autoscaler.
var ClusterAutoscalerImages = map[string]string{
	"1.32": "v1.32.5",
	"1.33": "v1.33.5",
	"1.34": "v1.34.4",
	"1.35": "v1.35.1",
}
