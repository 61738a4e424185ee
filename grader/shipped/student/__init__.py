"""Files copied into every student folder (the package marker itself is not copied)."""
