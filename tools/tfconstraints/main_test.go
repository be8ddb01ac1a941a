package main

import "testing"

// A names constant missing from the names file is read from its Go name
// as the generator names them.
func TestSnake(t *testing.T) {
	for in, want := range map[string]string{
		"Resources": "resources", "SubnetIDs": "subnet_ids", "RoleARN": "role_arn", "VPCConfig": "vpc_config",
		"VPCID": "vpc_id", "SecurityGroupIDs": "security_group_ids", "ARN": "arn", "KeyID": "key_id",
	} {
		if got := snake(in); got != want {
			t.Errorf("snake(%s) = %s, want %s", in, got, want)
		}
	}
}

// Bridge names: camelCase, a list of many pluralised.
func TestPulumiName(t *testing.T) {
	for _, c := range []struct {
		tf     string
		plural bool
		want   string
	}{{"client_id_list", true, "clientIdLists"}, {"identity", true, "identities"}, {"subnet_ids", true, "subnetIds"}, {"vpc_config", false, "vpcConfig"}} {
		if got := pulumiName(c.tf, c.plural); got != c.want {
			t.Errorf("pulumiName(%s) = %s, want %s", c.tf, got, c.want)
		}
	}
}
