"""Device adapters behind small interfaces, one package per vendor, chosen by type string."""
