package catalog

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Capacity. Each EKS cluster's Cluster Autoscaler grows its node group
// up to maxSize while pods wait for room, and no further: a pod that does
// not fit then stays Pending, so a rollout waits out its steady-state
// check and rolls back. Validation adds up, per cluster, what is
// scheduled there at the peak of a rollout and refuses a cluster whose
// maxSize nodes cannot hold it, or a pod no one node holds, with the
// figures.

// InstanceType is an EC2 instance type's capacity as EKS's nodes offer it.
type InstanceType struct {
	VCPU      int
	MemoryMiB int64
	// MaxPods is the ENI-based pod limit the EKS AMI sets on a node of
	// the type with the VPC CNI (amazon-eks-ami, eni-max-pods.txt).
	MaxPods int
}

// InstanceTypes are the figures of the instance types the project knows
// (EC2, "Amazon EC2 instance types": vCPUs, memory; amazon-eks-ami
// eni-max-pods.txt: max pods). A type not here is not checked (validate
// warns).
var InstanceTypes = map[string]InstanceType{
	"m5.large": {2, 8192, 29}, "m5.xlarge": {4, 16384, 58}, "m5.2xlarge": {8, 32768, 58},
	"m6i.large": {2, 8192, 29}, "m6i.xlarge": {4, 16384, 58}, "m6i.2xlarge": {8, 32768, 58}, "m6i.4xlarge": {16, 65536, 234},
	"m6g.large": {2, 8192, 29}, "m6g.xlarge": {4, 16384, 58}, "m6g.2xlarge": {8, 32768, 58},
	"m7g.large": {2, 8192, 29}, "m7g.xlarge": {4, 16384, 58}, "m7g.2xlarge": {8, 32768, 58},
	"c6i.large": {2, 4096, 29}, "c6i.xlarge": {4, 8192, 58}, "c6i.2xlarge": {8, 16384, 58},
	"r6i.large": {2, 16384, 29}, "r6i.xlarge": {4, 32768, 58}, "r6i.2xlarge": {8, 65536, 58},
	"t3.medium": {2, 4096, 17}, "t3.large": {2, 8192, 35}, "t3.xlarge": {4, 16384, 58},
}

// Allocatable is what the kubelet offers pods on a node of type t: its
// capacity less the kube-reserved CPU and memory and the hard eviction
// threshold the EKS AMI configures (amazon-eks-ami nodeadm,
// internal/kubelet/config.go: CPU 6% of the first core, 1% of the
// second, 0.5% of the third and fourth, 0.25% of the rest; memory
// 11 MiB per pod of MaxPods plus 255 MiB; evictionHard
// memory.available<100Mi).
func (t InstanceType) Allocatable() (milliCPU, memMiB int64) {
	reserved := 0.0
	for core := 1; core <= t.VCPU; core++ {
		switch {
		case core == 1:
			reserved += 60
		case core == 2:
			reserved += 10
		case core <= 4:
			reserved += 5
		default:
			reserved += 2.5
		}
	}
	return int64(t.VCPU)*1000 - int64(math.Ceil(reserved)), t.MemoryMiB - (11*int64(t.MaxPods) + 255) - 100
}

// What the cluster's own pods ask, from the EKS add-ons' manifests:
// CoreDNS two replicas of 100m and 70Mi; on every node kube-proxy 100m
// and the VPC CNI (aws-node) 25m. The External Secrets Operator's and
// the Cluster Autoscaler's charts set no requests (values.yaml
// resources: {}).
const (
	coreDNSReplicas     = 2
	coreDNSMilliCPU     = 100
	coreDNSMemMiB       = 70
	perNodeMilliCPU     = 100 + 25
	systemPodsPerNode   = 2 // kube-proxy, aws-node
	externalSecretsPods = 3 // controller, webhook, cert controller
	autoscalerPods      = 1
)

// RolloutPods is how many pods a deployment of replicas may run at once
// with strategy, what its namespace's quota makes room for
// (plan.Guardrail.Pods) and its cluster's capacity must hold: a rolling
// update's surge (Kubernetes's default maxSurge, 25% rounded up), or a
// canary's pods beside the stable ones (Harness's canary deploys up to as
// many again before the rolling phase replaces the stable ones), and one
// more for a job or a debugging pod.
func RolloutPods(replicas int, strategy string) int {
	extra := int(math.Ceil(float64(replicas) / 4))
	if strategy == Canary {
		extra = replicas
	}
	return replicas + extra + 1
}

// demand is what one cluster runs.
type demand struct {
	milliCPU, memMiB int64
	pods             int
	// by is each contributor's CPU, for the message.
	by map[string]int64
}

func (d *demand) add(what string, pods int, cpu, mem string) error {
	c, err := resource.ParseQuantity(cpu)
	if err != nil {
		return fmt.Errorf("%s: cpu %q: %w", what, cpu, err)
	}
	m, err := resource.ParseQuantity(mem)
	if err != nil {
		return fmt.Errorf("%s: memory %q: %w", what, mem, err)
	}
	d.milliCPU += c.MilliValue() * int64(pods)
	d.memMiB += m.Value() * int64(pods) / (1 << 20)
	d.pods += pods
	d.by[what] += c.MilliValue() * int64(pods)
	return nil
}

// checkCapacity refuses every EKS cluster whose node group cannot hold
// what is scheduled there at the peak of a rollout: the services'
// requests (RolloutPods), the delegate's, the add-ons'.
func (v *validator) checkCapacity(c *Catalog) {
	for _, env := range c.Chain {
		st := c.Stacks[env]
		doc := v.stacks[env]
		if st.Cluster == nil || doc == nil || doc.Cluster == nil {
			continue
		}
		ng := st.Cluster.NodeGroup
		t, ok := InstanceTypes[ng.InstanceType]
		at := doc.Cluster.NodeGroup.At
		if !ok {
			v.warnAt(at.Field("instanceType"), "add the type's vCPUs, memory and max pods to catalog.InstanceTypes", "instance type %q has no capacity figures here: the clusters' capacity is not checked", ng.InstanceType)
			continue
		}
		cpuPer, memPer := t.Allocatable()
		// The autoscaler's limit; a node's DaemonSets come before any pod.
		nodes := int64(ng.MaxSize)
		podCPU := cpuPer - perNodeMilliCPU
		for _, r := range st.Regions {
			if r.Kind == RegionExisting {
				continue
			}
			d := demand{by: map[string]int64{}}
			var errs []string
			note := func(err error) {
				if err != nil {
					errs = append(errs, err.Error())
				}
			}
			for i := range c.Services {
				s := &c.Services[i]
				in, ok := s.In[env]
				if !ok || !slices.Contains(in.Regions, r.Name) {
					continue
				}
				note(d.add("services", RolloutPods(in.Workload.Replicas, in.Strategy), in.Workload.Requests.CPU, in.Workload.Requests.Memory))
				if q, err := resource.ParseQuantity(in.Workload.Requests.CPU); err == nil && q.MilliValue() > podCPU {
					v.at(at.Field("instanceType"),
						fmt.Sprintf("take an instanceType with more than %s vCPU, or lower %s's cpu request in %s", milli(q.MilliValue()+perNodeMilliCPU), s.Name, env),
						"service %s asks %s CPU per pod in %s; one %s node offers %s to pods after its DaemonSets, so its pods never schedule and no node the autoscaler adds holds them",
						s.Name, milli(q.MilliValue()), env, ng.InstanceType, milli(podCPU))
				}
			}
			note(d.add("delegate", max(st.Delegate.Replicas, 1), st.Delegate.CPU, st.Delegate.Memory))
			d.milliCPU += coreDNSReplicas*coreDNSMilliCPU + perNodeMilliCPU*nodes
			d.memMiB += coreDNSReplicas * coreDNSMemMiB
			d.by["system"] = coreDNSReplicas*coreDNSMilliCPU + perNodeMilliCPU*nodes
			d.pods += coreDNSReplicas + systemPodsPerNode*int(nodes) + externalSecretsPods + autoscalerPods
			if len(errs) > 0 {
				continue // the quantities are refused where they are written
			}
			haveCPU, haveMem, havePods := cpuPer*nodes, memPer*nodes, int64(t.MaxPods)*nodes
			if d.milliCPU <= haveCPU && d.memMiB <= haveMem && int64(d.pods) <= havePods {
				continue
			}
			need := max(ceilDiv(d.milliCPU, cpuPer), ceilDiv(d.memMiB, memPer), ceilDiv(int64(d.pods), int64(t.MaxPods)))
			var parts []string
			for _, k := range sortedKeys(d.by) {
				parts = append(parts, fmt.Sprintf("%s %s", k, milli(d.by[k])))
			}
			v.at(at.Field("maxSize"),
				fmt.Sprintf("raise nodeGroup maxSize to %d, or take a larger instanceType, or lower the services' replicas or requests", need),
				"cluster %s in %s needs %s CPU (%s), %d MiB and %d pods at the peak of a rollout; %d %s nodes (maxSize, as far as the autoscaler grows it) offer %s CPU, %d MiB and %d pods (each %s CPU and %d MiB allocatable, %d pods)",
				env, r.Name, milli(d.milliCPU), strings.Join(parts, ", "), d.memMiB, d.pods, nodes, ng.InstanceType, milli(haveCPU), haveMem, havePods, milli(cpuPer), memPer, t.MaxPods)
		}
	}
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// milli writes millicores as vCPUs: 3.86.
func milli(m int64) string { return fmt.Sprintf("%.2f", float64(m)/1000) }
