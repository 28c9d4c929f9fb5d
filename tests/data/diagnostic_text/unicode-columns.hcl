x = "café €" +
