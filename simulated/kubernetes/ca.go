package kubernetes

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"time"
)

// ClusterCA is the PEM certificate of a simulated cluster's CA, as EKS
// returns it (certificateAuthority.data, base64 of PEM): the real
// Kubernetes provider parses it before anything else, refusing what is not
// a certificate ("unable to load root certificates"). It is the same for
// the same cluster on every run (an Ed25519 key from the cluster's id,
// fixed dates and serial), so an update leaves the kubeconfig unchanged.
func ClusterCA(id string) []byte {
	seed := sha256.Sum256([]byte("simulated cluster CA " + id))
	key := ed25519.NewKeyFromSeed(seed[:])
	tmpl := &x509.Certificate{
		SerialNumber:          new(big.Int).SetBytes(seed[:8]),
		Subject:               pkix.Name{CommonName: "kubernetes"},
		NotBefore:             time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		NotAfter:              time.Date(2036, 1, 1, 0, 0, 0, 0, time.UTC),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
	}
	// Ed25519 signatures are deterministic: no randomness is read.
	der, err := x509.CreateCertificate(bytes.NewReader(nil), tmpl, tmpl, key.Public(), key)
	if err != nil {
		panic(err) // a fixed template: cannot fail
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}
