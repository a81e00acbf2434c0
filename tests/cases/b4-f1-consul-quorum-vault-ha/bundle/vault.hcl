# /etc/vault.d/vault.hcl -- vault-1 (managed by ansible role vault_server, do not edit by hand)
ui            = true
cluster_name  = "vault-prod-dc1"
disable_mlock = false
log_level     = "info"

storage "consul" {
  address        = "127.0.0.1:8500"
  path           = "vault/"
  scheme         = "http"
  service        = "vault"
  session_ttl    = "15s"
  lock_wait_time = "15s"
  consistency_mode = "default"
}

listener "tcp" {
  address         = "0.0.0.0:8200"
  cluster_address = "0.0.0.0:8201"
  tls_cert_file   = "/etc/vault.d/tls/vault.crt"
  tls_key_file    = "/etc/vault.d/tls/vault.key"
  tls_min_version = "tls12"
}

seal "awskms" {
  region     = "eu-central-1"
  kms_key_id = "alias/vault-prod-unseal"
}

api_addr     = "https://10.20.2.21:8200"
cluster_addr = "https://10.20.2.21:8201"

telemetry {
  prometheus_retention_time = "30s"
  disable_hostname          = true
}
