"""neuromem — long-term memory for LLM agents."""
