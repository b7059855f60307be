## tests for hardening
