"""Player ratings (Glicko-2) and the service that rates a finished match."""
