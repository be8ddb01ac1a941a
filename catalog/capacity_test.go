package catalog

import (
	"strings"
	"testing"
)

// A production api service at 80 replicas of 2 CPUs does not fit: validate
// refuses every cluster it runs in, at the stack file's maxSize (as far as
// the autoscaler grows it), with the figures and the nodes it would take;
// the example as shipped fits.
func TestCapacityRefusesWhatDoesNotFit(t *testing.T) {
	files := exampleFiles(t)
	if _, err := Parse(files); err != nil {
		t.Fatalf("the example: %v", err)
	}
	const from = "      replicas: 6\n      resources: {limits: {cpu: \"2\", memory: 1Gi}}\n"
	s := string(files[ServicesFile])
	if !strings.Contains(s, from) {
		t.Fatalf("checkout-api's overrides are not %q", from)
	}
	files[ServicesFile] = []byte(strings.Replace(s, from, "      replicas: 80\n      resources: {requests: {cpu: \"2\"}, limits: {cpu: \"2\", memory: 1Gi}}\n", 1))
	_, err := Parse(files)
	if err == nil {
		t.Fatal("80 replicas of 2 CPUs fit")
	}
	msg := err.Error()
	for _, want := range []string{
		"Pulumi.production.yaml:51:16: cluster production in euw1 needs ",
		"; 10 m6i.2xlarge nodes (maxSize, as far as the autoscaler grows it) offer 79.10 CPU",
		"(each 7.91 CPU and 31775 MiB allocatable, 58 pods); raise nodeGroup maxSize to ",
		"Pulumi.staging.yaml:41:16: cluster staging in euw1 needs ",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, msg)
		}
	}
}

// A pod bigger than one node never schedules, whatever the autoscaler
// adds: validate names the service and the node's room.
func TestCapacityRefusesAPodNoNodeHolds(t *testing.T) {
	files := exampleFiles(t)
	const from = "      replicas: 6\n      resources: {limits: {cpu: \"2\", memory: 1Gi}}\n"
	files[ServicesFile] = []byte(strings.Replace(string(files[ServicesFile]), from, "      replicas: 1\n      resources: {requests: {cpu: \"8\"}, limits: {cpu: \"8\", memory: 1Gi}}\n", 1))
	_, err := Parse(files)
	want := "service checkout-api asks 8.00 CPU per pod in production; one m6i.2xlarge node offers 7.79 to pods after its DaemonSets, so its pods never schedule and no node the autoscaler adds holds them; take an instanceType with more than 8.12 vCPU"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// Allocatable is what the EKS AMI leaves pods: an m6i.large offers 1.93
// vCPU and 7518 MiB (8192 - 11 x 29 - 255 - 100).
func TestAllocatable(t *testing.T) {
	for typ, want := range map[string][2]int64{"m6i.large": {1930, 7518}, "m6i.xlarge": {3920, 15391}, "m6i.2xlarge": {7910, 31775}} {
		cpu, mem := InstanceTypes[typ].Allocatable()
		if cpu != want[0] || mem != want[1] {
			t.Errorf("%s: %dm, %d MiB, want %dm, %d MiB", typ, cpu, mem, want[0], want[1])
		}
	}
}
