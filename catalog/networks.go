package catalog

import (
	"fmt"
	"net/netip"
)

// reserved are the IPv4 ranges no runner's public address is in: the
// special-purpose ranges of the IANA IPv4 Special-Purpose Address
// Registry (RFC 6890) that are not globally reachable.
var reserved = []struct {
	prefix netip.Prefix
	what   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), `"this network" (RFC 791)`},
	{netip.MustParsePrefix("10.0.0.0/8"), "a private range (RFC 1918)"},
	{netip.MustParsePrefix("100.64.0.0/10"), "the shared address space of carrier NAT (RFC 6598)"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback (RFC 1122)"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local (RFC 3927)"},
	{netip.MustParsePrefix("172.16.0.0/12"), "a private range (RFC 1918)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignments (RFC 6890)"},
	{netip.MustParsePrefix("192.0.2.0/24"), "a documentation range, TEST-NET-1 (RFC 5737)"},
	{netip.MustParsePrefix("192.168.0.0/16"), "a private range (RFC 1918)"},
	{netip.MustParsePrefix("198.18.0.0/15"), "the benchmarking range (RFC 2544)"},
	{netip.MustParsePrefix("198.51.100.0/24"), "a documentation range, TEST-NET-2 (RFC 5737)"},
	{netip.MustParsePrefix("203.0.113.0/24"), "a documentation range, TEST-NET-3 (RFC 5737)"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast (RFC 5771)"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved (RFC 1112)"},
}

// ReservedRange says which special-purpose range network is in or
// overlaps ("is in a documentation range, ..."), if any: an address no runner on the internet comes from, such as the
// documentation ranges the examples use as placeholders.
func ReservedRange(network string) (string, bool) {
	p, err := netip.ParsePrefix(network)
	if err != nil || !p.Addr().Is4() {
		return "", false
	}
	for _, r := range reserved {
		switch {
		case p.Bits() == 0:
		case r.prefix.Contains(p.Addr()) && r.prefix.Bits() <= p.Bits():
			return "is in " + r.what, true
		case r.prefix.Overlaps(p):
			return fmt.Sprintf("overlaps %s, %s", r.prefix, r.what), true
		}
	}
	return "", false
}
