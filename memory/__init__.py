"""Platform-agnostic memory engine: storage, vectors, embeddings, write path and retrieval."""
