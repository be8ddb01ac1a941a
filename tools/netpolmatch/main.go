// Command netpolmatch judges flows by Kubernetes NetworkPolicies with the
// matcher of the Kubernetes network policy project
// (github.com/mattfenwick/cyclonus pkg/matcher, v0.5.6; the
// network-policy-api project's policy-assistant is its fork, whose module
// path is not its directory, so the module proxy cannot serve it).
//
// It is a module of its own: the matcher prints tables with
// github.com/olekukonko/tablewriter v0.0.5, whose API v1 dropped, and the
// main module's OPA needs v1. Package connectivity builds and runs it.
//
// It reads one JSON request on standard input and writes the verdicts:
//
//	{"policies": [NetworkPolicy...], "flows": [{"from": Peer, "to": Peer, "port": 443, "protocol": "TCP"}...]}
//	-> [{"egress": true, "ingress": false, "egressBy": n, "ingressBy": n}...]
//
// A Peer is {"ip": "10.1.0.5"} outside the cluster's pods, or a pod:
// {"ip", "namespace", "namespaceLabels", "podLabels"}. egressBy and
// ingressBy count the policies that select the pod (0: none, allowed).
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/mattfenwick/cyclonus/pkg/matcher"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

type peer struct {
	IP              string            `json:"ip"`
	Namespace       string            `json:"namespace,omitempty"`
	NamespaceLabels map[string]string `json:"namespaceLabels,omitempty"`
	PodLabels       map[string]string `json:"podLabels,omitempty"`
}

type flow struct {
	From     peer   `json:"from"`
	To       peer   `json:"to"`
	Port     int    `json:"port"`
	Protocol string `json:"protocol"`
}

type verdict struct {
	Egress    bool `json:"egress"`
	Ingress   bool `json:"ingress"`
	EgressBy  int  `json:"egressBy"`
	IngressBy int  `json:"ingressBy"`
}

func trafficPeer(p peer) *matcher.TrafficPeer {
	out := &matcher.TrafficPeer{IP: p.IP}
	if p.Namespace != "" {
		out.Internal = &matcher.InternalPeer{Namespace: p.Namespace, NamespaceLabels: p.NamespaceLabels, PodLabels: p.PodLabels}
	}
	return out
}

func main() {
	var req struct {
		Policies []*networkingv1.NetworkPolicy `json:"policies"`
		Flows    []flow                        `json:"flows"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
		fmt.Fprintln(os.Stderr, "netpolmatch: reading the request:", err)
		os.Exit(2)
	}
	policy := matcher.BuildNetworkPolicies(false, req.Policies)
	out := make([]verdict, 0, len(req.Flows))
	for _, f := range req.Flows {
		r := policy.IsTrafficAllowed(&matcher.Traffic{
			Source: trafficPeer(f.From), Destination: trafficPeer(f.To),
			ResolvedPort: f.Port, Protocol: corev1.Protocol(f.Protocol),
		})
		out = append(out, verdict{
			Egress: r.Egress.IsAllowed(), Ingress: r.Ingress.IsAllowed(),
			EgressBy:  len(r.Egress.AllowingTargets) + len(r.Egress.DenyingTargets),
			IngressBy: len(r.Ingress.AllowingTargets) + len(r.Ingress.DenyingTargets),
		})
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "netpolmatch:", err)
		os.Exit(1)
	}
}
