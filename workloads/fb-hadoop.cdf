# Facebook Hadoop workload: flow-size CDF of a Facebook Hadoop cluster.
# Paper: A. Roy, H. Zeng, J. Bagga, G. Porter, A. C. Snoeren,
#        "Inside the Social Network's (Datacenter) Network", ACM SIGCOMM 2015.
# Numbers taken from: github.com/alibaba-edu/High-Precision-Congestion-Control,
#        traffic_gen/FbHdp_distribution.txt (commit 9cf8b9e8c8d04a3775e06c972c4699dcbce53c37),
#        the form used by the HPCC (SIGCOMM 2019) simulator.
# Units: sizes in bytes, cumulative probability in percent (0..100), as in the source; no conversion.
# Mean flow size (linear interpolation between points): 120420.75 bytes (~120 KB).
# Format: flow_size_bytes cumulative_probability
0 0
100 1
200 2
300 5
350 15
400 20
500 30
600 40
700 50
1000 60
2000 67
7000 70
30000 72
50000 82
80000 87
120000 90
300000 95
1000000 97.5
2000000 99
10000000 100
