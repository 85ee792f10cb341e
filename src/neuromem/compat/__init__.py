"""Drop-in faces of other memory libraries over neuromem (``neuromem.compat.mem0``)."""
