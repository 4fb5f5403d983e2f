{"type":"printf","data":"a \"quoted\" line\u000a"}
{"type":"trace","data":7}
{"type":"aggregation","name":"@n","function":"count","data":[{"keys":["x"],"value":1}]}
{"type":"aggregation","name":"@q","function":"quantize","data":[{"keys":[],"buckets":[{"min":4,"count":1}],"value":1}]}
