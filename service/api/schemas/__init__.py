"""Request and response models, one module per resource (Create / Update / Public)."""
